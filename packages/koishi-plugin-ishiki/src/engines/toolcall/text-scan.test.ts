import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ToolCatalog } from "./text-catalog.js";
import { ToolMarkupScanner, type ScanEvent } from "./text-scan.js";

const catalog = new ToolCatalog([
  { name: "send_message", inputSchema: { type: "object", properties: { messages: { type: "array", items: { type: "string" } } }, required: ["messages"] } },
  { name: "finish", inputSchema: { type: "object", properties: { reason: { type: "string" } } } },
]);

/** Pieces of real and broken markup, so random texts hit every opener, close tag and partial match. */
const fragments = [
  "<tool_call>", "</tool_call>", '{"name": "send_message", "arguments": {"messages": ["hi"]}}', '{"name": "finish"', "}", "{", "[", "]", '"', "\\",
  "<send_message>", "</send_message>", "<messages>", "</messages>", '["a"]', "<finish/>", "<finish />", "<finish>", "</finish>",
  "<function=finish>", "</function>", "<parameter=reason>", "</parameter>", "<|tool_call|>", "[TOOL_CALLS]", "```json\n", "```", "\n",
  "<think>", "</think>", "messages: [x]", "text ", "好的", "<", ">", "/", " ", "<b>", "a < b",
  // Longer than the spill threshold, so markup moves out of the live buffer mid-call.
  "x".repeat(1500), `${"y".repeat(1200)}<`,
];

const chunked = (text: string, cuts: number[]): string[] => {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let at = 0;
  for (const point of points) {
    out.push(text.slice(at, point));
    at = point;
  }
  out.push(text.slice(at));
  return out;
};

/** Events with adjacent texts merged: deltas may split text anywhere, calls never. */
function merged(events: ScanEvent[]): ScanEvent[] {
  const out: ScanEvent[] = [];
  for (const event of events) {
    const last = out.at(-1);
    if (event.type === "text" && last?.type === "text") out[out.length - 1] = { type: "text", text: last.text + event.text };
    else if (event.type !== "text" || event.text !== "") out.push(event);
  }
  return out;
}

const streamed = (chunks: string[]): ScanEvent[] => {
  const scanner = new ToolMarkupScanner(catalog);
  return [...chunks.flatMap((chunk) => scanner.push(chunk)), ...scanner.finish()];
};

const textOf = (events: ScanEvent[]): string => events.map((event) => (event.type === "call" ? "" : event.type === "text" ? event.text : event.raw)).join("");

describe("ToolMarkupScanner (EN-40)", () => {
  it("EN-40 any chunking of any text gives the events generate gives, and loses no character", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...fragments), { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 30 }), (pieces, cuts) => {
        const text = pieces.join("");
        const whole = merged(ToolMarkupScanner.scan(text, catalog));
        expect(merged(streamed(chunked(text, cuts)))).toEqual(whole);
        expect(merged(streamed([...text]))).toEqual(whole);
        // Text outside calls is kept verbatim: nothing is dropped except the markup of calls read.
        if (!whole.some((event) => event.type === "call")) expect(textOf(whole)).toBe(text);
      }),
      { seed: 18, numRuns: 400 },
    );
  });

  it("EN-40 a long call cut off at the end is reported, not lost, however it was chunked", () => {
    const text = `<tool_call>{"name": "finish", "arguments": {"reason": "${"z".repeat(5000)}"}}`;
    for (const chunks of [[text], [...text], chunked(text, [3, 1030, 2047, 4099])]) {
      expect(merged(streamed(chunks))).toEqual([{ type: "call", toolName: "finish", input: JSON.stringify({ reason: "z".repeat(5000) }) }]);
      const cut = text.slice(0, -3);
      expect(merged(streamed(chunks.length === 1 ? [cut] : [...cut]))).toEqual([expect.objectContaining({ type: "invalid", toolName: "finish" })]);
    }
  });

  it("EN-40 a call naming a known tool is never dropped: it is read, or reported invalid with its markup", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.nat(60), (noise, cut) => {
        const call = '<tool_call>{"name": "finish", "arguments": {"reason": "x"}}</tool_call>';
        const broken = call.slice(0, Math.min(cut, call.length - 1));
        for (const text of [`${noise}${call}`, `${noise}${broken}`]) {
          const events = ToolMarkupScanner.scan(text, catalog);
          if (text.endsWith(call)) expect(events.some((event) => event.type === "call" && event.toolName === "finish")).toBe(true);
          else if (broken.includes('"finish"')) expect(events.some((event) => event.type !== "text" && event.toolName === "finish")).toBe(true);
        }
      }),
      { seed: 18, numRuns: 300 },
    );
  });

  it.each([
    ["deeply nested elements", `<send_message><messages>${"<a>".repeat(4000)}x${"</a>".repeat(4000)}</messages></send_message>`],
    ["ten thousand angle brackets", `<finish><reason>${"<".repeat(10000)}</reason></finish>`],
    ["ten thousand braces", `${"{".repeat(10000)} then <finish/>`],
    ["an unclosed think", `<think>${"reason ".repeat(5000)}<finish/>`],
    ["a bare call prefix repeated", '{"name": "finish", '.repeat(2000)],
    ["an endless YAML alias chain", `<send_message>\nmessages: &a [x]\n${Array.from({ length: 200 }, (_, i) => `k${i}: *a`).join("\n")}\n</send_message>`],
  ])("EN-40 hostile output (%s) is read the same in every chunking", (_name, text) => {
    const whole = merged(ToolMarkupScanner.scan(text, catalog));
    expect(merged(streamed(chunked(text, [1, 7, 100, 4096, 9000])))).toEqual(whole);
    expect(whole.length).toBeGreaterThan(0);
  });
});
