import { afterEach, describe, expect, it, vi } from "vitest";
import { mockApi } from "./gateway-mock-api.js";
import { createGateway } from "../src/create-gateway.js";
import type { GroupConfig } from "../src/config.js";

function gatewayWith(groups: Record<string, GroupConfig>) {
  return createGateway({
    apis: { mock: mockApi() },
    config: {
      providers: { p: { api: "mock", models: [{ id: "a", input: ["text", "image"] }, { id: "b" }, { id: "c" }, { id: "emb", type: "embedding" }] } },
      groups,
    },
  });
}

const ids = (group: { candidates(): Array<{ id: string }> }) => group.candidates().map((candidate) => candidate.id);

describe("model groups", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it("GW-14 groups are built eagerly; empty groups and non-language members are errors", () => {
    const gateway = gatewayWith({ ok: { models: ["p:a"] }, empty: { models: [] }, emb: { models: ["p:a", "p:emb"] }, lost: { models: ["q:a"] } });
    expect(gateway.errors().map((error) => error.message)).toEqual([
      "groups.empty: declares no members",
      `groups.emb: Model "emb" is declared as embedding, not language`,
      `groups.lost: Unknown provider "q" (from "q:a"); registered: p`,
    ]);
    expect(gateway.group("ok").strategy).toBe("failover");
    expect(() => gateway.group("emb")).toThrow(`groups.emb: Model "emb" is declared as embedding, not language`);
  });

  it("GW-15 failover keeps declared order; round-robin rotates one further per call", () => {
    const gateway = gatewayWith({ f: { models: ["p:a", "p:b", "p:c"] }, r: { strategy: "round-robin", models: ["p:a", "p:b", "p:c"] } });
    expect(ids(gateway.group("f"))).toEqual(["p:a", "p:b", "p:c"]);
    expect(ids(gateway.group("f"))).toEqual(["p:a", "p:b", "p:c"]);
    const r = gateway.group("r");
    expect([ids(r), ids(r), ids(r), ids(r)]).toEqual([
      ["p:a", "p:b", "p:c"],
      ["p:b", "p:c", "p:a"],
      ["p:c", "p:a", "p:b"],
      ["p:a", "p:b", "p:c"],
    ]);
  });

  it("GW-15 random shuffles uniformly per call", () => {
    const gateway = gatewayWith({ r: { strategy: "random", models: ["p:a", "p:b", "p:c"] } });
    const group = gateway.group("r");
    const firsts: Record<string, number> = {};
    for (let i = 0; i < 3000; i++) firsts[ids(group)[0]] = (firsts[ids(group)[0]] ?? 0) + 1;
    for (const ref of ["p:a", "p:b", "p:c"]) expect(firsts[ref]).toBeGreaterThan(800);
    vi.spyOn(Math, "random").mockReturnValue(0);
    expect(ids(group)).toEqual(["p:b", "p:c", "p:a"]);
  });

  it("GW-15 GW-16 open breakers are skipped, half-open offered, all open offers all", () => {
    vi.useFakeTimers();
    const gateway = gatewayWith({ g: { models: ["p:a", "p:b"], circuitBreaker: { failureThreshold: 1, cooldownSeconds: 30 } } });
    const group = gateway.group("g");
    group.candidates()[0].failure();
    expect(ids(group)).toEqual(["p:b"]);
    vi.advanceTimersByTime(30_000);
    expect(group.status()["p:a"].state).toBe("half-open");
    expect(ids(group)).toEqual(["p:a", "p:b"]);
    for (const candidate of group.candidates()) candidate.failure();
    expect(group.status()).toEqual({ "p:a": { state: "open", failures: 2 }, "p:b": { state: "open", failures: 1 } });
    expect(ids(group)).toEqual(["p:a", "p:b"]);
    group.reset();
    expect(group.status()).toEqual({ "p:a": { state: "closed", failures: 0 }, "p:b": { state: "closed", failures: 0 } });
  });

  it("GW-16 a candidate carries its model and metadata; one breaker per distinct reference", () => {
    const gateway = gatewayWith({ g: { models: ["p:a", "p:a:high", "p:a"] } });
    const group = gateway.group("g");
    const [first, withLevel, again] = group.candidates();
    expect(first).toMatchObject({ id: "p:a", metadata: { input: ["text", "image"] } });
    expect(first.model.modelId).toBe("a");
    expect(withLevel.id).toBe("p:a:high");
    first.failure();
    again.failure();
    expect(group.status()).toEqual({ "p:a": { state: "closed", failures: 2 }, "p:a:high": { state: "closed", failures: 0 } });
    withLevel.failure();
    first.success();
    expect(group.status()["p:a"].failures).toBe(0);
    expect(group.status()["p:a:high"].failures).toBe(1);
  });
});
