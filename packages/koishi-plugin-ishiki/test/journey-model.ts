// The scripted OpenAI-compatible model of the demo journey (seed 000), for the tests that run the demo app in a
// child process: the demo test and the console's browser tests.
import type { ServerResponse } from "node:http";
import { sse, type Received } from "../../gateway/test/gateway-servers.js";

/** A tool result the model saw in this turn: the tool's name and the result's text. */
export interface ToolResultSeen {
  name: string;
  content: string;
}

/**
 * An OpenAI-compatible chat completion stream that plays one turn of the demo journey: `search`, then a codemode
 * program, then `send_message` with `reply` of the program's result; the step is chosen by the tool results after
 * the latest user message, so each conversation turn starts over.
 */
export function journeyModel(program: string, reply: (result: string) => string, seen: (results: ToolResultSeen[]) => void = () => {}) {
  return (request: Received, response: ServerResponse): void => {
    const chunk = (delta: unknown, finish: string | null = null) => ({ id: "c", object: "chat.completion.chunk", created: 1, model: request.body.model, choices: [{ index: 0, delta, finish_reason: finish }] });
    const messages = request.body.messages as Array<{ role: string; content: unknown; tool_calls?: Array<{ id: string; function: { name: string } }>; tool_call_id?: string }>;
    const names = new Map<string, string>();
    let results: ToolResultSeen[] = [];
    for (const message of messages) {
      for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
      const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
      if (message.role === "user" && !text.startsWith("Code mode capability update")) results = [];
      if (message.role === "tool") results.push({ name: names.get(message.tool_call_id!) ?? "?", content: text });
    }
    seen(results);
    const done = results.find((result) => result.name === "codemode");
    const next = !results.some((result) => result.name === "search")
      ? { name: "search", input: { query: "write_file" } }
      : !done
        ? { name: "codemode", input: { js: program } }
        : { name: "send_message", input: { messages: [reply(done.content)] } };
    const call = { index: 0, id: `call_${messages.length}`, type: "function", function: { name: next.name, arguments: JSON.stringify(next.input) } };
    const usage = { prompt_tokens: 100 + messages.length, completion_tokens: 20, total_tokens: 120 + messages.length };
    sse(response, [{ data: chunk({ role: "assistant", content: "" }) }, { data: chunk({ tool_calls: [call] }) }, { data: { ...chunk({}, "tool_calls"), usage } }, { data: "[DONE]" }]);
  };
}
