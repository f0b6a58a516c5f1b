/** A port on 127.0.0.1 nobody listens on right now, for a server a test starts in another process. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Real HTTP peers on 127.0.0.1 for the gateway's wire tests: each records what it received and answers
// as the real API would (OpenAI-compatible chat completions, Anthropic Messages, Gemini), or fails on cue.
import { createServer } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface TestServer {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export type Handler = (request: Received, response: ServerResponse, raw: IncomingMessage) => void;

export async function startServer(handler: Handler): Promise<TestServer> {
  const received: Received[] = [];
  const server = createServer((raw, response) => {
    let text = "";
    raw.setEncoding("utf8");
    raw.on("data", (chunk: string) => (text += chunk));
    raw.on("end", () => {
      const request = { method: raw.method ?? "", path: raw.url ?? "", headers: raw.headers, body: text ? JSON.parse(text) : undefined };
      received.push(request);
      handler(request, response, raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: a server is started and closed again. */
export async function refusedUrl(): Promise<string> {
  const server = await startServer(() => {});
  await server.close();
  return server.url;
}

export function sse(response: ServerResponse, events: Array<{ event?: string; data: unknown }>, end = true): void {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const { event, data } of events) {
    response.write(`${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
  }
  if (end) response.end();
}

export function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

const chunk = (delta: unknown, finish: string | null = null, extra: object = {}) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "test-model",
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});

/** A chat completion that says "Hello" and calls `lookup({ q: "tea" })`, in SSE chunks. */
export const OPENAI_TOOL_STREAM = [
  { data: chunk({ role: "assistant", content: "" }) },
  { data: chunk({ content: "Hel" }) },
  { data: chunk({ content: "lo" }) },
  { data: chunk({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":' } }] }) },
  { data: chunk({ tool_calls: [{ index: 0, function: { arguments: '"tea"}' } }] }) },
  { data: chunk({}, "tool_calls", { usage: { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 } }) },
  { data: "[DONE]" },
];

/** Only the role chunk: the SDK emits stream-start and response-metadata, no content. */
export const OPENAI_PRELUDE = [{ data: chunk({ role: "assistant", content: "" }) }];
export const OPENAI_FIRST_TEXT = [...OPENAI_PRELUDE, { data: chunk({ content: "Par" }) }];

export function openaiText(text: string) {
  return [{ data: chunk({ role: "assistant", content: text }) }, { data: chunk({}, "stop") }, { data: "[DONE]" }];
}

export const ANTHROPIC_STREAM = [
  {
    event: "message_start",
    data: {
      type: "message_start",
      message: { id: "msg_1", type: "message", role: "assistant", model: "claude-test", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } },
    },
  },
  { event: "content_block_start", data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } } },
  { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Bonjour" } } },
  { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
  { event: "message_delta", data: { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 2 } } },
  { event: "message_stop", data: { type: "message_stop" } },
];

export const GEMINI_STREAM = [
  { data: { candidates: [{ content: { parts: [{ text: "Hal" }], role: "model" }, index: 0 }] } },
  {
    data: {
      candidates: [{ content: { parts: [{ text: "lo" }], role: "model" }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
    },
  },
];
