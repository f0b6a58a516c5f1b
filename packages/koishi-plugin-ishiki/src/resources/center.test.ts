import { Buffer } from "node:buffer";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResourceCenter, type OwnedResourceCenter } from "./center.js";
import { ResourceError, type ResourcePayload, type SchemeHandler } from "./index.js";

// The seed 001 sample, unchanged but for its import path (the package index re-exports this barrel).
class ClockHandler implements SchemeHandler {
  public readonly scheme = "clock";

  public resolve(input: string): ResourcePayload {
    const url = new URL(input);
    if (url.hostname !== "now") {
      throw new ResourceError("resource_not_found", "expected clock://now");
    }
    const text = new Date().toISOString();
    return { type: "text", url: input, text, size: Buffer.byteLength(text) };
  }
}

class Recorder implements SchemeHandler {
  public readonly seen: string[] = [];
  public constructor(public readonly scheme: string) {}
  public resolve(url: string): ResourcePayload {
    this.seen.push(url);
    return { type: "text", url, text: "ok", size: 2 };
  }
}

async function rejection(promise: Promise<unknown>): Promise<ResourceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResourceError);
  return error as ResourceError;
}

let homeA: string;
let homeB: string;
let a: OwnedResourceCenter;
let b: OwnedResourceCenter;

beforeAll(async () => {
  homeA = await mkdtemp(join(tmpdir(), "ishiki-center-a-"));
  homeB = await mkdtemp(join(tmpdir(), "ishiki-center-b-"));
  await writeFile(join(homeA, "n.txt"), "from A");
  await writeFile(join(homeB, "n.txt"), "from B");
  a = createResourceCenter({ runtimeId: "p:a", home: homeA });
  b = createResourceCenter({ runtimeId: "p:b", home: homeB });
});

afterAll(async () => {
  a.dispose();
  b.dispose();
  await rm(homeA, { recursive: true, force: true });
  await rm(homeB, { recursive: true, force: true });
});

describe("ResourceCenter", () => {
  it("RS-1 a URL resolves only in its own center", async () => {
    expect(await a.resolve("local://n.txt")).toMatchObject({ text: "from A" });
    expect(await b.resolve("local://n.txt")).toMatchObject({ text: "from B" });
    const url = await a.store.writeArtifact("tool", new TextEncoder().encode("only in A"), { mediaType: "text/plain" });
    expect(await a.resolve(url)).toMatchObject({ type: "text", text: "only in A" });
    expect((await rejection(b.resolve(url))).code).toBe("resource_not_found");
    const clock = new ClockHandler();
    const dispose = a.attach(clock);
    expect((await rejection(b.resolve("clock://now"))).code).toBe("resource_unavailable");
    dispose();
  });

  it("RS-2 RS-3 core schemes come first and are reserved; duplicates throw; disposers are idempotent", async () => {
    expect(a.runtimeId).toBe("p:a");
    expect(a.listSchemes()).toEqual(["asset", "artifact", "local"]);
    for (const scheme of ["asset", "artifact", "local"]) {
      expect(() => a.attach(new Recorder(scheme))).toThrow(`scheme "${scheme}" is reserved`);
    }
    const first = new Recorder("zeta");
    const disposeZeta = a.attach(first);
    const disposeAlpha = a.attach(new Recorder("alpha"));
    expect(a.listSchemes()).toEqual(["asset", "artifact", "local", "zeta", "alpha"]);
    expect(() => a.attach(new Recorder("zeta"))).toThrow('scheme "zeta" is already registered');
    disposeZeta();
    const second = new Recorder("zeta");
    const disposeSecond = a.attach(second);
    disposeZeta();
    await a.resolve("zeta://x");
    expect(second.seen).toEqual(["zeta://x"]);
    expect(first.seen).toEqual([]);
    disposeSecond();
    disposeSecond();
    disposeAlpha();
    expect(a.listSchemes()).toEqual(["asset", "artifact", "local"]);
  });

  it("RS-4 RS-7 RS-13 other handlers get the full URL verbatim; no HTTP(S) handler is built in", async () => {
    expect((await rejection(a.resolve("https://example.com/x"))).code).toBe("resource_unavailable");
    const https = new Recorder("https");
    const dispose = a.attach(https);
    await a.resolve("https://h:8443/a?q=1#f");
    await a.resolve("HTTPS://h/%2e%2e/a%20b:1-2?view=meta#offset=3");
    expect(https.seen).toEqual(["https://h:8443/a?q=1#f", "HTTPS://h/%2e%2e/a%20b:1-2?view=meta#offset=3"]);
    dispose();
  });

  it("RS-6 an unknown scheme is resource_unavailable listing the available ones", async () => {
    const dispose = a.attach(new ClockHandler());
    const error = await rejection(a.resolve("mcp://server/x"));
    expect(error.code).toBe("resource_unavailable");
    expect(error.message).toBe('unknown scheme "mcp"; available: asset://, artifact://, local://, clock://');
    expect((await rejection(a.resolve("no scheme here"))).code).toBe("invalid_resource_uri");
    dispose();
  });

  it("RS-14 RS-16 handler ResourceErrors pass through; other throws are wrapped with the cause", async () => {
    const dispose = a.attach(new ClockHandler());
    expect(await a.resolve("clock://now")).toMatchObject({ type: "text", url: "clock://now" });
    const notFound = await rejection(a.resolve("clock://later"));
    expect([notFound.name, notFound.code, notFound.message]).toEqual(["ResourceError", "resource_not_found", "expected clock://now"]);
    dispose();
    const boom = new TypeError("boom");
    const disposeBroken = a.attach({ scheme: "broken", resolve: () => Promise.reject(boom) });
    const wrapped = await rejection(a.resolve("broken://x"));
    expect(wrapped.code).toBe("resource_read_failed");
    expect(wrapped.message).toBe("broken handler failed: TypeError: boom");
    expect(wrapped.cause).toBe(boom);
    disposeBroken();
  });

  it("RS-2 an aborted read rejects with the abort reason, not a wrapped error", async () => {
    const controller = new AbortController();
    const reason = new Error("turn aborted");
    const dispose = a.attach({
      scheme: "slow",
      resolve: (_url, options) =>
        new Promise((_, reject) => options?.signal?.addEventListener("abort", () => reject(options.signal!.reason), { once: true })),
    });
    const pending = a.resolve("slow://x", { signal: controller.signal });
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    controller.abort();
    await expect(a.resolve("local://n.txt", { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    dispose();
  });

  it("RS-2 locate gives host paths of host-file-backed URLs only", async () => {
    expect(await a.locate("local://n.txt")).toBe(join(await import("node:fs/promises").then((fs) => fs.realpath(homeA)), "n.txt"));
    const url = await a.store.writeArtifact("t", new TextEncoder().encode("x"), { mediaType: "text/plain" });
    expect(await a.locate(url)).toBe(a.store.paths("artifact", "t", url.split("/").pop()!).bytes);
    const asset = await a.store.registerAsset("data:text/plain,hi");
    expect(await a.locate(asset)).toBeUndefined();
    await a.resolve(asset);
    expect(await a.locate(asset)).toBe(a.store.paths("asset", asset.slice("asset://".length)).bytes);
    const dispose = a.attach(new ClockHandler());
    expect(await a.locate("clock://now")).toBeUndefined();
    dispose();
  });
});
