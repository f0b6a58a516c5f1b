// EN-40 against a real OpenAI-compatible HTTP server on 127.0.0.1 behind the real @ai-sdk provider: the model's
// text arrives as SSE chunks of one character, the AI SDK's own tool loop runs the calls.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { stepCountIs, streamText, tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { sse, startServer, type TestServer } from "../../gateway/test/gateway-servers.js";
import type { TextProtocolName } from "../src/engines/toolcall/text-protocol-formats.js";
import { TextProtocolToolcallInstance } from "../src/engines/toolcall/text-protocol-instance.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** An answer as SSE chat-completion chunks of one character each. */
function characters(text: string) {
  const chunk = (delta: object, finish: string | null = null) => ({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] });
  return [{ data: chunk({ role: "assistant", content: "" }) }, ...[...text].map((char) => ({ data: chunk({ content: char }) })), { data: chunk({}, "stop") }, { data: "[DONE]" }];
}

const answers: Record<TextProtocolName, string> = {
  hermes: 'Sure.\n<tool_call>\n{"name": "write_file", "arguments": {"path": "a.md", "content": "# 标题\\n```js\\nif (a < b) {}\\n```"}}\n</tool_call>',
  qwen3coder: "Sure.\n<tool_call>\n<function=write_file>\n<parameter=path>\na.md\n</parameter>\n<parameter=content>\n# 标题\n```js\nif (a < b) {}\n```\n</parameter>\n</function>\n</tool_call>",
  "morph-xml": "Sure.\n<write_file><path>a.md</path><content># 标题\n```js\nif (a &lt; b) {}\n```</content></write_file>",
  "yaml-xml": "Sure.\n<write_file>\npath: a.md\ncontent: |-\n  # 标题\n  ```js\n  if (a < b) {}\n  ```\n</write_file>",
};

describe("text tool-call protocols over HTTP (EN-40)", () => {
  it.each(Object.keys(answers) as TextProtocolName[])("EN-40 %s: a call streamed one character per SSE chunk runs once with its exact input; its result goes back as text", async (protocol) => {
    server = await startServer((_request, response) => sse(response, characters(server!.received.length === 1 ? answers[protocol] : "Done.")));
    const provider = createOpenAICompatible({ name: "relay", baseURL: server.url });
    const written: unknown[] = [];
    const result = streamText({
      model: new TextProtocolToolcallInstance(protocol, { info() {} }).wrap(provider.chatModel("m")),
      prompt: "write it",
      tools: { write_file: tool({ inputSchema: z.object({ path: z.string(), content: z.string() }), execute: async (input) => (written.push(input), { ok: true }) }) },
      stopWhen: stepCountIs(3),
    });
    await result.consumeStream();
    expect(written).toEqual([{ path: "a.md", content: "# 标题\n```js\nif (a < b) {}\n```" }]);
    expect(await result.text).toBe("Done.");
    const [first, second] = server.received.map((request) => request.body as { tools?: unknown; messages: Array<{ role: string; content: unknown }> });
    expect(first.tools).toBeUndefined();
    expect(second.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(JSON.stringify(second.messages.at(-1))).toContain("<tool_response>");
  });
});
