import { jsonSchema, streamText, tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { createGateway } from "../src/index.js";
import { ANTHROPIC_STREAM, GEMINI_STREAM, OPENAI_TOOL_STREAM, openaiText, sse, startServer } from "./gateway-servers.js";
import type { TestServer } from "./gateway-servers.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const lookup = tool({ description: "look something up", inputSchema: jsonSchema<{ q: string }>({ type: "object", properties: { q: { type: "string" } }, required: ["q"] }) });

describe("gateway wire", () => {
  it("GW-5 GW-6 GW-13 openai-completions streams text and tool calls with a Bearer key and configured headers", async () => {
    const server = await startServer((_, response) => sse(response, OPENAI_TOOL_STREAM));
    servers.push(server);
    const gateway = createGateway({
      env: { RELAY_URL: `${server.url}/v1`, RELAY_KEY: "sk-relay-0001", TEAM: "blue" },
      config: {
        providers: {
          relay: {
            api: "openai-completions",
            baseUrl: "${RELAY_URL}",
            apiKey: "${RELAY_KEY}",
            headers: { "x-team": "${TEAM}" },
            models: [{ id: "test-model", toolCall: true }],
          },
        },
      },
    });
    const model = gateway.languageModel("relay:test-model");
    expect(model.provider).toBe("relay.chat");
    const result = streamText({ model, prompt: "hi", tools: { lookup }, maxRetries: 0 });
    expect(await result.text).toBe("Hello");
    expect(await result.toolCalls).toMatchObject([{ toolCallId: "call_1", toolName: "lookup", input: { q: "tea" } }]);

    const [request] = server.received;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer sk-relay-0001");
    expect(request.headers["x-team"]).toBe("blue");
    expect(request.body).toMatchObject({ model: "test-model", stream: true, messages: [{ role: "user", content: "hi" }] });
    expect(request.body.tools[0]).toMatchObject({ type: "function", function: { name: "lookup" } });
  });

  it("GW-5 GW-7 openai-completions without a key sends no Authorization header; providerOptions are read under the id", async () => {
    const server = await startServer((_, response) => sse(response, openaiText("ok")));
    servers.push(server);
    const gateway = createGateway({ config: { providers: { local: { api: "openai-completions", baseUrl: server.url } } } });
    const result = streamText({
      model: gateway.languageModel("local:anything"),
      prompt: "hi",
      maxRetries: 0,
      providerOptions: { local: { user: "alice" } },
    });
    expect(await result.text).toBe("ok");
    const [request] = server.received;
    expect(request.path).toBe("/chat/completions");
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body.user).toBe("alice");
  });

  it("GW-6 settings are spread first; explicit baseUrl and headers win", async () => {
    const server = await startServer((_, response) => sse(response, openaiText("ok")));
    servers.push(server);
    const gateway = createGateway({
      config: {
        providers: {
          local: {
            api: "openai-completions",
            baseUrl: server.url,
            headers: { "x-source": "explicit" },
            settings: { baseURL: "http://127.0.0.1:9", headers: { "x-source": "settings" }, includeUsage: true },
          },
        },
      },
    });
    expect(await streamText({ model: gateway.languageModel("local:m"), prompt: "hi", maxRetries: 0 }).text).toBe("ok");
    expect(server.received[0].headers["x-source"]).toBe("explicit");
    expect(server.received[0].body.stream_options).toEqual({ include_usage: true });
  });

  it("GW-12 a level suffix reaches the wire as the SDK reasoning option", async () => {
    const server = await startServer((_, response) => sse(response, openaiText("ok")));
    servers.push(server);
    const gateway = createGateway({ config: { providers: { local: { api: "openai-completions", baseUrl: server.url } } } });
    await streamText({ model: gateway.languageModel("local:o-mini:high"), prompt: "hi", maxRetries: 0 }).text;
    expect(server.received[0].body).toMatchObject({ model: "o-mini", reasoning_effort: "high" });
  });

  it("GW-5 anthropic-messages sends x-api-key and streams text", async () => {
    const server = await startServer((_, response) => sse(response, ANTHROPIC_STREAM));
    servers.push(server);
    const gateway = createGateway({
      config: { providers: { claude: { api: "anthropic-messages", baseUrl: `${server.url}/v1`, apiKey: "sk-ant-0002", models: [{ id: "claude-test" }] } } },
    });
    const result = streamText({ model: gateway.languageModel("claude:claude-test"), prompt: "salut", maxRetries: 0 });
    expect(await result.text).toBe("Bonjour");
    const [request] = server.received;
    expect(request.path).toBe("/v1/messages");
    expect(request.headers["x-api-key"]).toBe("sk-ant-0002");
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers["anthropic-version"]).toBe("2023-06-01");
    expect(request.body).toMatchObject({ model: "claude-test", stream: true, messages: [{ role: "user", content: [{ type: "text", text: "salut" }] }] });
  });

  it("GW-5 anthropic-messages with settings.authToken sends a Bearer header and no x-api-key", async () => {
    const server = await startServer((_, response) => sse(response, ANTHROPIC_STREAM));
    servers.push(server);
    const gateway = createGateway({
      config: { providers: { claude: { api: "anthropic-messages", baseUrl: server.url, settings: { authToken: "tok-0003" } } } },
    });
    expect(await streamText({ model: gateway.languageModel("claude:claude-test"), prompt: "x", maxRetries: 0 }).text).toBe("Bonjour");
    expect(server.received[0].headers.authorization).toBe("Bearer tok-0003");
    expect(server.received[0].headers["x-api-key"]).toBeUndefined();
  });

  it("GW-5 google-generative-ai sends x-goog-api-key and streams text", async () => {
    const server = await startServer((_, response) => sse(response, GEMINI_STREAM));
    servers.push(server);
    const gateway = createGateway({
      config: { providers: { gem: { api: "google-generative-ai", baseUrl: `${server.url}/v1beta`, apiKey: "AIza-0004" } } },
    });
    const result = streamText({ model: gateway.languageModel("gem:gemini-test"), prompt: "hallo", maxRetries: 0 });
    expect(await result.text).toBe("Hallo");
    const [request] = server.received;
    expect(request.path).toBe("/v1beta/models/gemini-test:streamGenerateContent?alt=sse");
    expect(request.headers["x-goog-api-key"]).toBe("AIza-0004");
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({ contents: [{ role: "user", parts: [{ text: "hallo" }] }] });
  });

  it("GW-5 openai-responses builds a Responses API model", () => {
    const gateway = createGateway({ config: { providers: { oa: { api: "openai-responses", apiKey: "sk-0005" } } } });
    expect(gateway.languageModel("oa:gpt-test").provider).toBe("openai.responses");
  });
});
