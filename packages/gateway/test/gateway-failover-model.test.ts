import { APICallError } from "@ai-sdk/provider";
import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { finish, mockApi, streamOf, textParts } from "./gateway-mock-api.js";
import type { Call, Script } from "./gateway-mock-api.js";
import { classifyFailure } from "../src/classify.js";
import { createGateway } from "../src/create-gateway.js";
import { createFailoverModel } from "../src/failover-model.js";
import type { GatewayLogger } from "../src/logger.js";

const apiError = (statusCode: number | undefined, isRetryable = false) =>
  new APICallError({ message: `status ${statusCode}`, url: "http://x", requestBodyValues: {}, statusCode, isRetryable });

function setup(scripts: Record<string, Script>, members = ["p:a", "p:b"]) {
  const calls: Call[] = [];
  const lines: string[] = [];
  const logger: GatewayLogger = { debug() {}, info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), error() {} };
  const gateway = createGateway({
    logger,
    apis: { mock: mockApi(scripts, calls) },
    config: { providers: { p: { api: "mock" } }, groups: { g: { models: members } } },
  });
  return { gateway, calls, lines, refs: () => calls.map((call) => call.ref) };
}

async function read(model: LanguageModelV4, abortSignal?: AbortSignal): Promise<LanguageModelV4StreamPart[]> {
  const { stream } = await model.doStream({ prompt: [], abortSignal });
  const parts: LanguageModelV4StreamPart[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return parts;
    parts.push(value);
  }
}

const text = (parts: LanguageModelV4StreamPart[]) => parts.flatMap((part) => (part.type === "text-delta" ? [part.delta] : [])).join("");

describe("failover model", () => {
  it("GW-19 a plain reference stays plain; a group or attempts > 1 is wrapped", () => {
    const { gateway } = setup({});
    expect(gateway.profileModel("p:a").provider).toBe("p.mock");
    expect(gateway.profileModel("p:a", { failover: { attempts: 1 } }).provider).toBe("p.mock");
    expect(gateway.profileModel("p:a", { failover: { attempts: 2 } })).toMatchObject({ provider: "ishiki.failover", modelId: "p:a" });
    expect(gateway.profileModel("g")).toMatchObject({ provider: "ishiki.failover", modelId: "g" });
    expect(() => gateway.profileModel("nogroup")).toThrow(`Unknown model group "nogroup" (declared: g)`);
  });

  it("GW-20 unset attempts make one round; more attempts cycle; a single reference is retried", async () => {
    const { gateway, refs } = setup({ "p:a": async () => Promise.reject(apiError(500)), "p:b": async () => Promise.reject(apiError(503)) });
    await expect(read(gateway.profileModel("g", { failover: { backoffMs: 0 } }))).rejects.toThrow("status 503");
    expect(refs()).toEqual(["p:a", "p:b"]);
    await expect(read(gateway.profileModel("g", { failover: { backoffMs: 0, attempts: 3 } }))).rejects.toThrow("status 500");
    expect(refs().slice(2)).toEqual(["p:a", "p:b", "p:a"]);
    await expect(read(gateway.profileModel("p:b", { failover: { backoffMs: 0, attempts: 3 } }))).rejects.toThrow("status 503");
    expect(refs().slice(5)).toEqual(["p:b", "p:b", "p:b"]);
  });

  it("GW-21 GW-30 each switch waits the jittered backoff and logs it", async () => {
    const { gateway, lines } = setup({ "p:a": async () => Promise.reject(apiError(500)) }, ["p:a", "p:a", "p:b"]);
    const model = createFailoverModel(gateway.group("g"), { logger: { debug() {}, info: (m) => lines.push(m), warn() {}, error() {} }, backoffMs: 40, random: () => 0 });
    const started = Date.now();
    expect(text(await read(model))).toBe("p:b");
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    expect(lines).toEqual([
      "p:a failed (unavailable: HTTP 500: status 500); trying p:a in 20 ms",
      "p:a failed (unavailable: HTTP 500: status 500); trying p:b in 40 ms",
    ]);
  });

  it("GW-22 classes: no status, retryable, 5xx and 401/403/404/408/409/429 are unavailable; other 4xx rejected", () => {
    expect(classifyFailure(new TypeError("fetch failed"))).toBe("unavailable");
    expect(classifyFailure(apiError(undefined))).toBe("unavailable");
    expect(classifyFailure(apiError(400, true))).toBe("unavailable");
    for (const status of [500, 502, 401, 403, 404, 408, 409, 429]) expect(classifyFailure(apiError(status))).toBe("unavailable");
    for (const status of [400, 413, 422]) expect(classifyFailure(apiError(status))).toBe("rejected");
  });

  it("GW-22 an abort rethrows at once and records nothing", async () => {
    const controller = new AbortController();
    const { gateway, refs } = setup({
      "p:a": (options) =>
        new Promise((_, reject) => {
          options.abortSignal!.addEventListener("abort", () => reject(Object.assign(new Error("aborted"), { name: "AbortError" })));
          controller.abort();
        }),
    });
    await expect(read(gateway.profileModel("g"), controller.signal)).rejects.toThrow("aborted");
    expect(refs()).toEqual(["p:a"]);
    expect(gateway.group("g").status()["p:a"].failures).toBe(0);
  });

  it("GW-22 an abort during the backoff ends the call", async () => {
    const controller = new AbortController();
    const { gateway, refs } = setup({ "p:a": async () => Promise.reject(apiError(500)) });
    setTimeout(() => controller.abort(new Error("user stop")), 20);
    await expect(read(gateway.profileModel("g", { failover: { backoffMs: 5000 } }), controller.signal)).rejects.toThrow("user stop");
    expect(refs()).toEqual(["p:a"]);
  });

  it("GW-23 before content, a closed, finished or errored stream switches; prelude parts are passed on", async () => {
    const prelude: LanguageModelV4StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "response-metadata", id: "r1" },
      { type: "raw", rawValue: {} },
    ];
    for (const broken of [streamOf(prelude), streamOf([...prelude, finish]), streamOf([...prelude, { type: "error", error: { message: "overloaded" } }]), streamOf(prelude, new Error("reset"))]) {
      const { gateway, refs, lines } = setup({ "p:a": async () => broken });
      const parts = await read(gateway.profileModel("g", { failover: { backoffMs: 0 } }));
      expect(text(parts)).toBe("p:b");
      expect(parts[0]).toEqual({ type: "stream-start", warnings: [] });
      expect(refs()).toEqual(["p:a", "p:b"]);
      expect(lines[0]).toMatch(/^info p:a failed \(unavailable: .+\); trying p:b in 0 ms$/);
    }
  });

  it("GW-23 after content an error part passes through and nothing switches; success is recorded on finish", async () => {
    const { gateway, refs } = setup({
      "p:a": async () => streamOf([...textParts("partial").slice(0, 3), { type: "error", error: new Error("mid-stream") }]),
    });
    const group = gateway.group("g");
    const parts = await read(gateway.profileModel("g"));
    expect(text(parts)).toBe("partial");
    expect(parts.at(-1)).toMatchObject({ type: "error" });
    expect(refs()).toEqual(["p:a"]);
    expect(group.status()["p:a"].failures).toBe(1);

    const healthy = setup({});
    healthy.gateway.group("g").candidates()[0].failure();
    await read(healthy.gateway.profileModel("g"));
    expect(healthy.gateway.group("g").status()["p:a"]).toEqual({ state: "closed", failures: 0 });
  });

  it("GW-23 doGenerate follows the same policy", async () => {
    const { gateway } = setup({});
    const first = gateway.group("g").candidates()[0].model as { doGenerate: LanguageModelV4["doGenerate"] };
    let calls = 0;
    first.doGenerate = async () => {
      calls++;
      throw apiError(502);
    };
    const result = await gateway.profileModel("g", { failover: { backoffMs: 0 } }).doGenerate({ prompt: [] });
    expect(calls).toBe(1);
    expect(result.content).toEqual([{ type: "text", text: "p:b" }]);
    expect(gateway.group("g").status()["p:a"].failures).toBe(1);
  });
});
