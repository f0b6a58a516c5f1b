import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import type { Context } from "koishi";
import { afterEach, describe, expect, it } from "vitest";
import {
  HermesToolcallEngine,
  MorphXmlToolcallEngine,
  Qwen3CoderToolcallEngine,
  YamlXmlToolcallEngine,
} from "../src/engines/toolcall/text-protocol.js";
import { TextProtocolToolcallInstance } from "../src/engines/toolcall/text-protocol-instance.js";
import type { TextProtocolName } from "../src/engines/toolcall/text-protocol-formats.js";
import { chunkedModel, promptText } from "./engines-toolcall-support.js";
import { channel, logged, readEvents, startActive, toolOutputs, type KernelApp } from "./runtime-app.js";

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

interface Protocol {
  engine: new (ctx: Context) => unknown;
  contract: string;
  send: string;
  malformed: string;
  /** What the model is told about the malformed call, when the markup itself is broken (not just the values). */
  told?: string;
  finish: string;
}

const protocols: Record<TextProtocolName, Protocol> = {
  hermes: {
    engine: HermesToolcallEngine,
    contract: "<tool_call>",
    send: '<tool_call>{"name": "send_message", "arguments": {"messages": ["hi there"]}}</tool_call>',
    malformed: '<tool_call>{"name": "send_message", "arguments": {"messages": ["hi"</tool_call>',
    told: "Invalid call to send_message: the JSON is cut off",
    finish: '<tool_call>{"name": "finish", "arguments": {}}</tool_call>',
  },
  "morph-xml": {
    engine: MorphXmlToolcallEngine,
    contract: "<example_function_name>",
    send: '<send_message><messages>["hi there"]</messages></send_message>',
    malformed: "<send_message><mode>loud</mode></send_message>",
    finish: "<finish></finish>",
  },
  qwen3coder: {
    engine: Qwen3CoderToolcallEngine,
    contract: "<function=example_function_name>",
    send: '<tool_call><function=send_message><parameter=messages>["hi there"]</parameter></function></tool_call>',
    malformed: "<tool_call><function=send_message><parameter=mode>loud</parameter></function></tool_call>",
    finish: "<tool_call><function=finish></function></tool_call>",
  },
  "yaml-xml": {
    engine: YamlXmlToolcallEngine,
    contract: "YAML",
    send: "<send_message>\nmessages:\n  - hi there\n</send_message>",
    malformed: "<send_message>\nmessages: [hi\n</send_message>",
    told: "Invalid call to send_message: invalid YAML",
    finish: "<finish>\n</finish>",
  },
};

describe("text tool-call protocols (EN-40)", () => {
  it.each(Object.keys(protocols) as TextProtocolName[])("EN-40 %s: calls parsed from streamed text run; results return as protocol text; the native channel is empty", async (name) => {
    const protocol = protocols[name];
    kernel = await startActive("p", {
      profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, toolcall: { engine: name } } },
    });
    // A built-in (EN-4): the kernel registered the protocol's own service.
    expect(kernel.app.get(`ishiki.engine.toolcall.${name}`)).toBeInstanceOf(protocol.engine);
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    const model = chunkedModel([`Trying. ${protocol.malformed}`, `Again. ${protocol.send}`, protocol.finish]);
    runtime.agent.setModel(model);
    runtime.wake();
    await runtime.agent.wait();

    // Step 1's malformed call got an invalid-input result, step 2's call was executed.
    expect(kernel.outbound.sent.map((sent) => sent.content)).toEqual(["hi there"]);
    expect(model.prompts).toHaveLength(2);
    const outputs = toolOutputs(await readEvents(runtime.home));
    expect(JSON.stringify(outputs[0])).toMatch(/invalid|Invalid/);
    expect(outputs[1]).toMatchObject({ ok: true });

    for (const request of model.prompts) {
      expect(request.tools ?? []).toEqual([]);
      expect(request.prompt.some((message) => message.role === "tool")).toBe(false);
      expect(request.prompt.find((message) => message.role === "system")?.content).toContain(protocol.contract);
    }
    // The error went back as protocol text the model can read and repair.
    const second = promptText(model.prompts[1].prompt);
    expect(second).toContain("<tool_response>");
    expect(second).toMatch(/invalid|Invalid/);
    if (protocol.told !== undefined) {
      // The defect in one line, then the format to use (issue 18: not a JSON error about the wrapper markup).
      expect(second).toContain(protocol.told);
      expect(second).toMatch(/Expected format: <[^\n]*send_message/);
    }

    // Next turn: the executed call and its result are in the history in the protocol's text shape.
    runtime.wake();
    await runtime.agent.wait();
    const third = model.prompts[2].prompt;
    const assistant = third.filter((message) => message.role === "assistant");
    expect(assistant.flatMap((message) => message.content.map((part) => part.type))).not.toContain("tool-call");
    expect(promptText(third)).toContain("send_message");
    expect(promptText(third)).toMatch(/<tool_response>[\s\S]*"?ok"?[\s\S]*true/);
  });

  it("EN-40 history rewriting keeps user file parts and moves media of tool results into a user message", async () => {
    const model = chunkedModel(["done"]);
    const instance = new TextProtocolToolcallInstance("hermes", { info: () => {} });
    const wrapped = instance.wrap(model);
    const image = new Uint8Array([137, 80, 78, 71]);
    const result = await wrapped.doStream({
      prompt: [
        { role: "system", content: "base" },
        { role: "user", content: [{ type: "text", text: "Attachment material from message #m1." }, { type: "file", data: { type: "data", data: image }, mediaType: "image/png" }] },
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "shot", input: {} }] },
        { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "shot", output: { type: "content", value: [{ type: "text", text: "captured" }, { type: "file", data: { type: "data", data: image }, mediaType: "image/png", filename: "s.png" }] } }] },
      ],
      tools: [{ type: "function", name: "shot", inputSchema: { type: "object", properties: {} } }],
    });
    await result.stream.pipeTo(new WritableStream());
    const sent = model.prompts[0].prompt;
    const files = sent.flatMap((message) => (message.role === "user" ? message.content.filter((part) => part.type === "file") : []));
    expect(files).toHaveLength(2);
    expect(files[1]).toMatchObject({ mediaType: "image/png", filename: "s.png" });
    expect(promptText(sent)).toContain("captured");
    expect(promptText(sent)).toContain("<tool_call>");
    expect(model.prompts[0].tools).toEqual([]);
  });

  it("EN-40 markup naming no known tool stays text; a malformed call naming a tool becomes a call with the raw input", async () => {
    const model = chunkedModel(['A <tool_call>{"name": "nope", "arguments": {"x": 1</tool_call> B <tool_call>{"name": "shot", "arguments": {"x": </tool_call>']);
    const lines: string[] = [];
    const instance = new TextProtocolToolcallInstance("hermes", { info: (...args: unknown[]) => void lines.push(args.join(" ")) });
    const result = await instance.wrap(model).doStream({ prompt: [{ role: "user", content: [{ type: "text", text: "go" }] }], tools: [{ type: "function", name: "shot", inputSchema: { type: "object", properties: {} } }] });
    const parts: LanguageModelV4StreamPart[] = [];
    await result.stream.pipeTo(new WritableStream({ write: (part) => void parts.push(part) }));
    const calls = parts.filter((part) => part.type === "tool-call");
    expect(calls).toEqual([expect.objectContaining({ toolName: "shot", input: '<tool_call>{"name": "shot", "arguments": {"x": </tool_call>' })]);
    expect(parts.find((part) => part.type === "finish")).toMatchObject({ finishReason: { unified: "tool-calls" } });
    expect(lines.some((line) => line.includes("returned to the model") && line.includes("shot"))).toBe(true);
    expect(lines.some((line) => line.includes("unknown tool") && line.includes("nope"))).toBe(true);
  });

  it("EN-5 a text protocol's block must be empty: unknown keys warn", async () => {
    kernel = await startActive("p", {
      profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, toolcall: { engine: "hermes", hermes: { strict: true } } } },
    });
    expect(logged(kernel, "toolcall.hermes.strict: unknown key ignored", "warn")).toBe(true);
  });
});
