import { afterEach, describe, expect, it, vi } from "vitest";
import { json, startServer, type TestServer } from "../../gateway/test/gateway-servers.js";
import { channel, fact, startActive, type KernelApp } from "./runtime-app.js";

let kernel: KernelApp | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  await kernel?.dispose();
  await server?.close();
  kernel = server = undefined;
  vi.restoreAllMocks();
});

describe("provider HTTP errors reach the owner as one line (issue 20)", () => {
  it("a 401 is one log line with status, provider, model and the upstream message, and nothing is dumped", async () => {
    server = await startServer((_, response) => json(response, 401, { error: { message: "Incorrect API key provided: sk-wr****", type: "invalid_request_error" } }));
    const printed = [vi.spyOn(console, "error"), vi.spyOn(console, "log"), vi.spyOn(console, "warn")];
    kernel = await startActive("p", { profiles: { p: { model: "relay:m", channels: { "mock:bot": ["*"] } } } });
    kernel.app.ishiki.gateway.reconfigure({
      providers: { mock: { api: "scripted" }, relay: { api: "openai-completions", baseUrl: `${server.url}/v1`, apiKey: "sk-wrong" } },
    });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    await runtime.deliver(fact("hello"));
    await runtime.agent.wait();
    runtime.wake();
    await runtime.agent.wait();

    const failures = kernel.logs.filter(([, line]) => line.includes("failed"));
    expect(failures.map(([, line]) => line)).toEqual([
      expect.stringMatching(/turn \S+ failed: AI_APICallError: HTTP 401 from "relay:m": Incorrect API key provided: sk-wr\*\*\*\*$/),
    ]);
    // Koishi's logger writes through console.log; nothing else may print (the SDK's default onError dumped the error).
    for (const spy of printed) for (const call of spy.mock.calls) expect(String(call[0])).not.toContain("AI_APICallError {");
    expect(printed[0].mock.calls).toEqual([]);
  });
});
