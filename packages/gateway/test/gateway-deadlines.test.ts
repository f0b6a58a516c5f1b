import { APICallError } from "@ai-sdk/provider";
import { generateText, streamText } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { createGateway, ModelTimeoutError } from "../src/index.js";
import { json, openaiText, sse, startServer } from "./gateway-servers.js";
import type { TestServer } from "./gateway-servers.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function server(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const started = await startServer(handler);
  servers.push(started);
  return started;
}

const chunk = (delta: unknown) => ({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: null }] });

function relay(url: string, timeouts: Record<string, number>, modelTimeouts?: Record<string, number>) {
  return createGateway({
    config: { providers: { relay: { api: "openai-completions", baseUrl: url, timeouts, models: [{ id: "m", ...(modelTimeouts ? { timeouts: modelTimeouts } : {}) }] } } },
  });
}

/** What a stream call ends with: its text, or the error it failed with. */
async function streamOutcome(model: ReturnType<ReturnType<typeof createGateway>["languageModel"]>): Promise<{ text?: string; error?: unknown }> {
  let error: unknown;
  const result = streamText({ model, prompt: "hi", maxRetries: 0, onError: ({ error: e }) => void (error = e) });
  const text = await Promise.resolve(result.text).catch((e: unknown) => ((error ??= e), undefined));
  return error === undefined ? { text } : { error };
}

describe("model call deadlines (issue 16: a stalled model never freezes a channel)", () => {
  it("a 200 response that sends one chunk and then nothing fails after idleMs, naming the model and the timeout", async () => {
    let closed = false;
    const url = (await server((_, response, raw) => {
      raw.on("close", () => (closed = true));
      sse(response, [{ data: chunk({ role: "assistant", content: "Hel" }) }], false);
    })).url;
    const outcome = await streamOutcome(relay(url, { idleMs: 150 }).languageModel("relay:m"));
    expect(outcome.error).toBeInstanceOf(ModelTimeoutError);
    expect((outcome.error as Error).message).toBe('model "relay:m" stopped sending output: nothing more arrived within 150 ms (timeouts.idleMs); the request was cancelled');
    // The request itself is cancelled, not left hanging on the socket.
    await expect.poll(() => closed).toBe(true);
  });

  it("SSE keep-alive comments forever are not output: the first-chunk deadline fails the call", async () => {
    const timers: NodeJS.Timeout[] = [];
    const url = (await server((_, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(`data: ${JSON.stringify(chunk({ role: "assistant" }))}\n\n`);
      timers.push(setInterval(() => response.write(": keep-alive\n\n"), 20));
    })).url;
    try {
      const outcome = await streamOutcome(relay(url, { firstChunkMs: 200, idleMs: 10_000 }).languageModel("relay:m"));
      expect((outcome.error as ModelTimeoutError).phase).toBe("firstChunkMs");
      expect((outcome.error as Error).message).toContain('model "relay:m" sent no output within 200 ms (timeouts.firstChunkMs)');
    } finally {
      for (const timer of timers) clearInterval(timer);
    }
  });

  it("a server that never sends response headers fails at the first-chunk deadline", async () => {
    const url = (await server(() => {})).url;
    const outcome = await streamOutcome(relay(url, { firstChunkMs: 150 }).languageModel("relay:m"));
    expect((outcome.error as ModelTimeoutError).phase).toBe("firstChunkMs");
  });

  it("a generate call that never answers fails after responseMs; a model's own timeouts win over its provider's", async () => {
    const url = (await server(() => {})).url;
    const gateway = relay(url, { responseMs: 60_000 }, { responseMs: 150 });
    const error = await generateText({ model: gateway.languageModel("relay:m"), prompt: "hi", maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect((error as ModelTimeoutError).phase).toBe("responseMs");
  });

  it("a slow but steady stream within its deadlines is untouched; 0 turns a deadline off", async () => {
    const url = (await server((_, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      const parts = openaiText("steady answer");
      let i = 0;
      const timer = setInterval(() => {
        const part = parts[i++];
        if (!part) {
          clearInterval(timer);
          response.end();
          return;
        }
        response.write(`data: ${typeof part.data === "string" ? part.data : JSON.stringify(part.data)}\n\n`);
      }, 60);
    })).url;
    expect(await streamOutcome(relay(url, { firstChunkMs: 0, idleMs: 400 }).languageModel("relay:m"))).toEqual({ text: "steady answer" });
  });

  it("a stall is a failover-able failure: the group's next member answers", async () => {
    const stalled = (await server(() => {})).url;
    const fine = (await server((_, response) => sse(response, openaiText("from b")))).url;
    const gateway = createGateway({
      config: {
        providers: {
          a: { api: "openai-completions", baseUrl: stalled, timeouts: { firstChunkMs: 150 } },
          b: { api: "openai-completions", baseUrl: fine },
        },
        groups: { pair: { models: ["a:m", "b:m"] } },
      },
    });
    const result = streamText({ model: gateway.profileModel("pair", { failover: { backoffMs: 1 } }), prompt: "hi", maxRetries: 0 });
    expect(await result.text).toBe("from b");
    expect(gateway.group("pair").status()["a:m"].failures).toBe(1);
  });

  it("the caller's abort still wins and is not reported as a timeout", async () => {
    const url = (await server(() => {})).url;
    const controller = new AbortController();
    const pending = generateText({ model: relay(url, {}).languageModel("relay:m"), prompt: "hi", maxRetries: 0, abortSignal: controller.signal }).catch((e: unknown) => e);
    controller.abort(new Error("user went away"));
    const error = await pending;
    expect(error).not.toBeInstanceOf(ModelTimeoutError);
  });

  it("rejects a negative or fractional timeout at the field", () => {
    const gateway = createGateway({ config: { providers: { relay: { api: "openai-completions", baseUrl: "http://127.0.0.1:9", timeouts: { idleMs: -1 } } } } });
    expect(gateway.errors()[0].message).toMatch(/^providers\.relay\.timeouts\.idleMs: /);
  });
});

describe("Retry-After (issue 16)", () => {
  it("GW-21 a 429 with Retry-After is retried on the same endpoint no sooner than it asked", async () => {
    const times: number[] = [];
    const url = (await server((_, response) => {
      times.push(Date.now());
      if (times.length === 1) {
        response.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
        response.end(JSON.stringify({ error: { message: "slow down" } }));
        return;
      }
      json(response, 200, { id: "x", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }] });
    })).url;
    const gateway = createGateway({ config: { providers: { relay: { api: "openai-completions", baseUrl: url } } } });
    const result = await generateText({ model: gateway.profileModel("relay:m", { failover: { attempts: 2, backoffMs: 1 } }), prompt: "hi", maxRetries: 0 });
    expect(result.text).toBe("ok");
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
  });

  it("an endpoint asking for more than 30 s is not waited for: the call fails at once with its error", async () => {
    const url = (await server((_, response) => {
      response.writeHead(429, { "content-type": "application/json", "retry-after": "120" });
      response.end(JSON.stringify({ error: { message: "quota" } }));
    })).url;
    const gateway = createGateway({ config: { providers: { relay: { api: "openai-completions", baseUrl: url } } } });
    const started = Date.now();
    const error = await generateText({ model: gateway.profileModel("relay:m", { failover: { attempts: 3, backoffMs: 1 } }), prompt: "hi", maxRetries: 0 }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error) && error.statusCode).toBe(429);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
