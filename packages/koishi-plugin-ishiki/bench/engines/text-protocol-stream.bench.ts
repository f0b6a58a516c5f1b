// Text tool-call protocols (spec 06 EN-40, EN-41; issue 18): one model call whose single argument is 32 kB,
// streamed in 3-character deltas through each protocol's toolcall middleware (a mock model that answers at
// once), against the same text through generate. The target is < 100 ms per streamed call in every protocol:
// each delta must cost time proportional to its own length, not to the text so far.
import type { LanguageModelV4, LanguageModelV4FunctionTool, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { TextProtocolToolcallInstance } from "../../src/engines/toolcall/text-protocol-instance.js";
import type { TextProtocolName } from "../../src/engines/toolcall/text-protocol-formats.js";
import { V3ToolcallInstance } from "../../src/engines/toolcall/v3.js";

interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
  pass?: boolean;
}

const quiet = { debug() {}, info() {} };
const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
const tools: LanguageModelV4FunctionTool[] = [{ type: "function", name: "write_file", inputSchema: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"] } }];

/** 32 kB of code-like text with newlines, angle brackets and quotes (kept valid inside each protocol). */
const body = Array.from({ length: 800 }, (_, i) => `line ${String(i).padStart(4, "0")}: if (a < b) x += 1;`).join("\n").slice(0, 32 * 1024);

const answers: Record<TextProtocolName | "v3", string> = {
  hermes: `Writing it.\n<tool_call>\n${JSON.stringify({ name: "write_file", arguments: { path: "big.txt", content: body } })}\n</tool_call>`,
  qwen3coder: `Writing it.\n<tool_call>\n<function=write_file>\n<parameter=path>\nbig.txt\n</parameter>\n<parameter=content>\n${body}\n</parameter>\n</function>\n</tool_call>`,
  "morph-xml": `Writing it.\n<write_file>\n  <path>big.txt</path>\n  <content>${body}</content>\n</write_file>`,
  "yaml-xml": `Writing it.\n<write_file>\npath: big.txt\ncontent: |\n${body.split("\n").map((line) => `  ${line}`).join("\n")}\n</write_file>`,
  v3: `\`\`\`json\n${JSON.stringify({ thoughts: { plan: "write" }, actions: [{ function: "write_file", params: { path: "big.txt", content: body } }] })}\n\`\`\``,
};

function scripted(text: string): LanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async () => ({ content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] }),
    doStream: async () => {
      const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }, { type: "text-start", id: "t" }];
      for (let i = 0; i < text.length; i += 3) parts.push({ type: "text-delta", id: "t", delta: text.slice(i, i + 3) });
      parts.push({ type: "text-end", id: "t" }, { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage });
      return { stream: new ReadableStream({ start: (controller) => (parts.forEach((part) => controller.enqueue(part)), controller.close()) }) };
    },
  });
}

const instance = (protocol: TextProtocolName | "v3") => (protocol === "v3" ? new V3ToolcallInstance(quiet) : new TextProtocolToolcallInstance(protocol, quiet));
const options = { prompt: [{ role: "user" as const, content: [{ type: "text" as const, text: "write it" }] }], tools };

async function streamed(protocol: TextProtocolName | "v3"): Promise<number> {
  const model = instance(protocol).wrap(scripted(answers[protocol]));
  const start = performance.now();
  const result = await model.doStream(options);
  let calls = 0;
  await result.stream.pipeTo(new WritableStream({ write: (part) => void (part.type === "tool-call" && (calls += 1)) }));
  const elapsed = performance.now() - start;
  if (calls !== 1) throw new Error(`${protocol}: expected one call, got ${calls}`);
  return elapsed;
}

async function generated(protocol: TextProtocolName | "v3"): Promise<number> {
  const model = instance(protocol).wrap(scripted(answers[protocol]));
  const start = performance.now();
  const result = await model.doGenerate(options);
  const elapsed = performance.now() - start;
  if (result.content.filter((part) => part.type === "tool-call").length !== 1) throw new Error(`${protocol}: generate read no call`);
  return elapsed;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export default async function bench(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const protocol of ["hermes", "qwen3coder", "morph-xml", "yaml-xml", "v3"] as const) {
    await streamed(protocol);
    const stream: number[] = [];
    const whole: number[] = [];
    for (let run = 0; run < 15; run += 1) {
      stream.push(await streamed(protocol));
      whole.push(await generated(protocol));
    }
    const value = Number(median(stream).toFixed(2));
    rows.push({ measure: `${protocol}: 32 kB argument streamed in 3-char deltas`, value, unit: "ms (median)", target: "< 100 ms", pass: value < 100 });
    rows.push({ measure: `${protocol}: the same text through generate`, value: Number(median(whole).toFixed(2)), unit: "ms (median)" });
  }
  return rows;
}
