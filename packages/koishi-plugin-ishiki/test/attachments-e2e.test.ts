// End to end through the real @ai-sdk/openai-compatible provider against an HTTP server on 127.0.0.1: the
// request after a vision tool call carries the image as an `image_url` part only when image input is on and
// the model declares image input (04 EX-33, EX-35, EX-38).
import { jsonSchema, tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { assertImageInput } from "../src/attachments/index.js";
import { createGateway } from "@yesimagent/gateway";
import { base64, createRuntime, png, type Runtime } from "./exit-support.js";
import { openaiText, sse, startServer, type TestServer } from "../../gateway/test/gateway-servers.js";

const chunk = (delta: unknown, finish: string | null = null) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "vision",
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const SNAP_CALL = [
  { data: chunk({ role: "assistant", content: "", tool_calls: [{ index: 0, id: "call_snap", type: "function", function: { name: "snap", arguments: "{}" } }] }) },
  { data: chunk({}, "tool_calls") },
  { data: "[DONE]" },
];

let server: TestServer | undefined;
let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  await server?.close();
  runtime = server = undefined;
});

async function visionTurn(imageInput: boolean, input: Array<"text" | "image">) {
  server = await startServer((request, response) => sse(response, server!.received.length === 1 ? SNAP_CALL : openaiText("seen")));
  const gateway = createGateway({ config: { providers: { relay: { api: "openai-completions", baseUrl: server.url, models: [{ id: "vision", input }] } } } });
  if (imageInput) assertImageInput(gateway, "relay:vision");
  const image = png(32, 24, 5);
  runtime = await createRuntime({
    model: gateway.profileModel("relay:vision"),
    settings: { imageInput },
    tools: () => ({ snap: tool({ inputSchema: jsonSchema<Record<string, never>>({ type: "object" }), execute: async () => ({ type: "image", data: base64(image), mimeType: "image/png" }) }) }),
  });
  runtime.agent.continue("take a picture");
  await runtime.agent.wait();
  expect(server.received).toHaveLength(2);
  return { body: server.received[1].body as { messages: Array<{ role: string; content: unknown }> }, image };
}

describe("attachments over the OpenAI-compatible wire", () => {
  it("EX-33 EX-38 with image input on and declared, the next request carries the image as image_url after the tool result", async () => {
    const { body, image } = await visionTurn(true, ["text", "image"]);
    const roles = body.messages.map((message) => message.role);
    const toolIndex = roles.indexOf("tool");
    expect(roles.slice(toolIndex)).toEqual(["tool", "user"]);
    const tool = body.messages[toolIndex];
    expect(JSON.stringify(tool)).toMatch(/\[attachment: artifact:\/\/snap\/\S+; image\/png; 64 bytes\]/);
    expect(JSON.stringify(tool)).not.toContain("image_url");
    const parts = body.messages[toolIndex + 1].content as Array<{ type: string; text?: string; image_url?: { url: string } }>;
    expect(parts.map((part) => part.type)).toEqual(["text", "image_url", "text"]);
    expect(parts[1].image_url!.url).toBe(`data:image/png;base64,${base64(image)}`);
    expect(parts[2].text).toMatch(/: image\/png, 64 bytes, 32x24\. include: original bytes$/);
  });

  it("EX-35 with image input off no image_url is sent and the message says the URLs can still be passed to tools", async () => {
    const { body } = await visionTurn(false, ["text", "image"]);
    expect(JSON.stringify(body)).not.toContain("image_url");
    const last = body.messages.at(-1)!;
    expect(last.role).toBe("user");
    const text = JSON.stringify(last.content);
    expect(text).toContain("No visual content is provided: image input is disabled for this model. The URLs can still be passed to tools.");
    expect(text).toContain("describe: image input is disabled for this model");
  });

  it("EX-38 a model that does not declare image input fails activation with image input on", async () => {
    const gateway = createGateway({
      config: {
        providers: { relay: { api: "openai-completions", baseUrl: "http://127.0.0.1:9", models: [{ id: "vision", input: ["text", "image"] }, { id: "plain" }] } },
        groups: { main: { models: ["relay:vision", "relay:plain"] } },
      },
    });
    expect(() => assertImageInput(gateway, "relay:plain")).toThrow("resources.imageInput requires image input; relay:plain does not declare it");
    expect(() => assertImageInput(gateway, "main")).toThrow("resources.imageInput requires image input; relay:plain does not declare it");
    expect(() => assertImageInput(gateway, "relay:vision")).not.toThrow();
    expect(() => assertImageInput(gateway, "relay:unknown")).toThrow("relay:unknown does not declare it");
  });
});
