// The text tool-call corpus (spec 06 EN-40, EN-41): real model output shapes per protocol, each read through
// generate and through streams cut into 1-character, 3-character, seeded random and whole deltas. Every path
// must give the same calls and text, matching the case's expectation; invalid calls must reach the model with
// their defect and the expected format.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { JSONParseError, type LanguageModelV4, type LanguageModelV4Content, type LanguageModelV4FunctionTool, type LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { InvalidToolInputError } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { usage } from "../../core/test/agent-support.js";
import { TextProtocolToolcallInstance } from "../src/engines/toolcall/text-protocol-instance.js";
import type { TextProtocolName } from "../src/engines/toolcall/text-protocol-formats.js";
import { V3ToolcallInstance } from "../src/engines/toolcall/v3.js";

interface ExpectedCall {
  name: string;
  input?: Record<string, unknown>;
  /** For a call that cannot be read: a part of the defect the model is told. */
  defect?: string;
}

interface Case {
  id: string;
  /** Where the shape comes from (chat template, model card, parser documentation). */
  from: string;
  text: string;
  calls: ExpectedCall[];
  /** The text left after the calls, compared with whitespace runs collapsed. */
  rest?: string;
}

const corpus = join(import.meta.dirname, "fixtures", "toolcall-corpus");
const tools: LanguageModelV4FunctionTool[] = (YAML.parse(readFileSync(join(corpus, "tools.yaml"), "utf8")) as Array<Omit<LanguageModelV4FunctionTool, "type">>).map((tool) => ({ type: "function", ...tool }));
const protocols = readdirSync(corpus).filter((file) => file.endsWith(".cases.yaml")).map((file) => file.replace(".cases.yaml", ""));
const casesOf = (protocol: string): Case[] => YAML.parse(readFileSync(join(corpus, `${protocol}.cases.yaml`), "utf8")) as Case[];

/** A seeded generator (mulberry32), so the random chunking is the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function chunk(text: string, how: "1" | "3" | "random" | "whole", seed: number): string[] {
  if (how === "whole") return [text];
  const next = random(seed);
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    const size = how === "1" ? 1 : how === "3" ? 3 : 1 + Math.floor(next() * 12);
    out.push(text.slice(at, at + size));
    at += size;
  }
  return out;
}

function model(text: string, chunks: string[]): LanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async () => ({ content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] }),
    doStream: async () => {
      const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }, { type: "text-start", id: "t" }, ...chunks.map((delta) => ({ type: "text-delta" as const, id: "t", delta })), { type: "text-end", id: "t" }, { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage }];
      return { stream: new ReadableStream({ start: (controller) => (parts.forEach((part) => controller.enqueue(part)), controller.close()) }) };
    },
  });
}

interface Read {
  calls: Array<{ name: string; input: string }>;
  text: string;
  finish?: string;
}

function readContent(content: ReadonlyArray<LanguageModelV4Content | LanguageModelV4StreamPart>): Read {
  const read: Read = { calls: [], text: "" };
  for (const part of content) {
    if (part.type === "tool-call") read.calls.push({ name: part.toolName, input: part.input });
    else if (part.type === "text") read.text += part.text;
    else if (part.type === "text-delta") read.text += part.delta;
    else if (part.type === "finish") read.finish = part.finishReason.unified;
  }
  return read;
}

const quiet = { info() {}, debug() {} };
const instanceFor = (protocol: string) => (protocol === "v3" ? new V3ToolcallInstance(quiet) : new TextProtocolToolcallInstance(protocol as TextProtocolName, quiet));
const options = { prompt: [{ role: "user" as const, content: [{ type: "text" as const, text: "go" }] }], tools };

async function generate(protocol: string, text: string): Promise<Read> {
  const result = await instanceFor(protocol).wrap(model(text, [])).doGenerate(options);
  return { ...readContent(result.content), finish: result.finishReason.unified };
}

async function stream(protocol: string, text: string, chunks: string[]): Promise<Read> {
  const result = await instanceFor(protocol).wrap(model(text, chunks)).doStream(options);
  const parts: LanguageModelV4StreamPart[] = [];
  await result.stream.pipeTo(new WritableStream({ write: (part) => void parts.push(part) }));
  return readContent(parts);
}

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};
const squash = (text: string): string => text.replace(/\s+/g, " ").trim();

/** The error the SDK raises for a call whose input is not JSON. */
function sdkError(call: { name: string; input: string }): Error {
  let cause: unknown;
  try {
    JSON.parse(call.input);
  } catch (error) {
    cause = error;
  }
  return new InvalidToolInputError({ toolName: call.name, toolInput: call.input, cause: new JSONParseError({ text: call.input, cause }) });
}

/** What the model is told about an invalid call in the next request: the rewritten tool result. */
async function feedback(protocol: string, call: { name: string; input: string }): Promise<string> {
  const seen: string[] = [];
  const recorder = new MockLanguageModelV4({
    doGenerate: async (request) => {
      seen.push(request.prompt.map((message) => (typeof message.content === "string" ? message.content : message.content.map((part) => ("text" in part ? part.text : "")).join(""))).join("\n"));
      return { content: [], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
    },
  });
  await instanceFor(protocol).wrap(recorder).doGenerate({
    prompt: [
      { role: "user", content: [{ type: "text", text: "go" }] },
      // As the agent keeps it: the invalid call with an empty input, the SDK's error (quoting the input) as result.
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: call.name, input: {} }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: call.name, output: { type: "error-text", value: String(sdkError(call)) } }] },
    ],
    tools,
  });
  return seen[0];
}

describe("text tool-call corpus (EN-40, EN-41)", () => {
  it("has at least 150 cases across hermes, qwen3coder, morph-xml, yaml-xml and v3", () => {
    expect([...protocols].sort()).toEqual(["hermes", "morph-xml", "qwen3coder", "v3", "yaml-xml"]);
    expect(protocols.reduce((sum, protocol) => sum + casesOf(protocol).length, 0)).toBeGreaterThanOrEqual(150);
  });

  for (const protocol of protocols) {
    describe(protocol, () => {
      it.each(casesOf(protocol).map((entry, index) => [entry.id, entry, index] as const))("%s", async (_id, entry, index) => {
        const whole = await generate(protocol, entry.text);
        for (const how of ["1", "3", "random", "whole"] as const) {
          const streamed = await stream(protocol, entry.text, chunk(entry.text, how, index + 1));
          expect({ how, ...streamed }).toEqual({ how, ...whole });
        }
        expect(whole.calls.map((call) => call.name)).toEqual(entry.calls.map((call) => call.name));
        for (const [at, expected] of entry.calls.entries()) {
          const actual = whole.calls[at];
          if (expected.defect === undefined) {
            expect(isJson(actual.input), `call ${at} should be valid: ${actual.input}`).toBe(true);
            expect(JSON.parse(actual.input)).toEqual(expected.input ?? {});
          } else {
            expect(isJson(actual.input), `call ${at} should be invalid`).toBe(false);
            const told = await feedback(protocol, actual);
            // Hermes carries the result as a JSON string: the defect may appear escaped.
            expect([expected.defect, JSON.stringify(expected.defect).slice(1, -1)].some((form) => told.includes(form)), told).toBe(true);
            expect(told).toMatch(/Expected format: /);
          }
        }
        expect(whole.finish).toBe(entry.calls.length > 0 ? "tool-calls" : "stop");
        if (protocol !== "v3") expect(squash(whole.text)).toBe(squash(entry.rest ?? ""));
        else if (entry.rest !== undefined) expect(squash(whole.text)).toContain(squash(entry.rest));
      });
    });
  }
});
