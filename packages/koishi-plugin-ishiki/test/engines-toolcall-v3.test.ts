import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { afterEach, describe, expect, it } from "vitest";
import { V3_UNPARSED_NOTE, V3ToolcallInstance } from "../src/engines/toolcall/v3.js";
import { renderV3Catalog } from "../src/engines/toolcall/v3-contract.js";
import { parseV3Answer } from "../src/engines/toolcall/v3-parse.js";
import { chunkedModel, promptText } from "./engines-toolcall-support.js";
import { channel, fact, readEvents, startActive, toolOutputs, type KernelApp } from "./runtime-app.js";

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

const fenced = (value: unknown, prose = "") => `${prose}\`\`\`json\n${JSON.stringify(value, null, 1)}\n\`\`\`\n`;
const thoughts = { observe: "Alice greeted me", analyze_infer: "she wants a reply", plan: "say hello" };
const silent = { debug: () => {} };

async function streamOnce(instance: V3ToolcallInstance, text: string, prompt: Parameters<ReturnType<typeof chunkedModel>["doStream"]>[0]["prompt"] = [{ role: "user", content: [{ type: "text", text: "go" }] }]) {
  const model = chunkedModel([text]);
  const result = await instance.wrap(model).doStream({ prompt, tools: [{ type: "function", name: "send_message", inputSchema: { type: "object", properties: { messages: { type: "array", items: { type: "string" } } }, required: ["messages"] } }] });
  const parts: LanguageModelV4StreamPart[] = [];
  await result.stream.pipeTo(new WritableStream({ write: (part) => void parts.push(part) }));
  return { parts, request: model.prompts[0] };
}

describe("v3 toolcall engine (EN-41)", () => {
  it("EN-41 a runtime turn: actions become v3-<n> calls, unknown ones dropped, results return as <observation> blocks", async () => {
    kernel = await startActive("p", {
      profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, toolcall: { engine: "v3" } } },
    });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    const model = chunkedModel([
      fenced({ thoughts, actions: [{ function: "send_message", params: { messages: [] } }, { function: "teleport", params: {} }] }, "Let me think.\n"),
      fenced({ thoughts, actions: [{ function: "send_message", params: { messages: ["hello"], continue: true } }] }),
      fenced({ thoughts: { plan: "done" }, actions: [] }),
    ]);
    runtime.agent.setModel(model);
    runtime.wake();
    await runtime.agent.wait();

    expect(kernel.outbound.sent.map((sent) => sent.content)).toEqual(["hello"]);
    expect(model.prompts).toHaveLength(3);
    const entries = await readEvents(runtime.home);
    const calls = entries.flatMap((entry) => (entry.type === "message" && entry.data.role === "assistant" && typeof entry.data.content !== "string" ? entry.data.content.filter((part) => part.type === "tool-call") : []));
    expect(calls.map((call) => [call.toolCallId, call.toolName])).toEqual([
      ["v3-1", "send_message"],
      ["v3-2", "send_message"],
    ]);
    expect(toolOutputs(entries)[1]).toMatchObject({ ok: true });

    const first = model.prompts[0];
    expect(first.tools ?? []).toEqual([]);
    const system = first.prompt.find((message) => message.role === "system")?.content ?? "";
    expect(system).toContain("exactly one fenced `json` block");
    expect(system).toContain("name: send_message");
    expect(system).toMatch(/ {2}messages: \(array of string\) \*\*\(required\)\*\*/);
    expect(system).toContain("\n---\nname: ");

    const second = model.prompts[1].prompt;
    expect(second.some((message) => message.role === "tool")).toBe(false);
    expect(second.flatMap((message) => (message.role === "assistant" ? message.content.map((part) => part.type) : []))).not.toContain("tool-call");
    const text = promptText(second);
    expect(text).toContain("<thoughts>\nobserve: Alice greeted me");
    expect(text).toContain('<action>{"function":"send_message","params":{"messages":[]}}</action>');
    expect(text).toMatch(/<observation function="send_message" id="v3-1">\n<status>error<\/status>/);
    expect(text).not.toContain("teleport");
    expect(promptText(model.prompts[2].prompt)).toMatch(/<observation function="send_message" id="v3-2">\n<status>success<\/status>\n<result>.*"ok":true/);
  });

  it("EN-41 an action on a known function with unreadable params is not dropped: the model is told the defect and the format", async () => {
    kernel = await startActive("p", {
      profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, toolcall: { engine: "v3" } } },
    });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    const model = chunkedModel([fenced({ thoughts, actions: [{ function: "send_message", params: "hello" }] }), fenced({ thoughts, actions: [{ function: "finish", params: {} }] })]);
    runtime.agent.setModel(model);
    runtime.wake();
    await runtime.agent.wait();
    expect(kernel.outbound.sent).toEqual([]);
    const text = promptText(model.prompts[1].prompt);
    expect(text).toContain('<action>{"function":"send_message","params":"hello"}</action>');
    expect(text).toMatch(/<status>error<\/status>\n<result>Invalid action on send_message: "params" must be a JSON object of parameters, got string\. Expected format: \{"function": "send_message", "params": /);
  });

  it("EN-19 EN-41 with the v3 context engine the model sees the contract and one world state holding its actions and observations", async () => {
    kernel = await startActive("p", {
      profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, context: { engine: "v3" }, toolcall: { engine: "v3" } } },
    });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    const model = chunkedModel([fenced({ thoughts, actions: [{ function: "send_message", params: { messages: ["hi Alice"], continue: true } }] }), fenced({ thoughts: { plan: "wait for Alice" }, actions: [{ function: "finish", params: {} }] })]);
    runtime.agent.setModel(model);
    await runtime.deliver(fact("hi bot"));
    runtime.wake();
    await runtime.agent.wait();
    expect(kernel.outbound.sent.map((sent) => sent.content)).toEqual(["hi Alice"]);
    const second = model.prompts[1].prompt;
    expect(second.map((message) => message.role)).toEqual(["system", "user"]);
    const world = promptText(second.slice(1));
    expect(world).toMatch(/<processed_events>\n<message>\[m\d+\|[^|]+\|Alice\(u1\)\] hi bot<\/message>[\s\S]*<assistant>\[[^|]+\|You\] <thoughts>\nobserve: Alice greeted me[\s\S]*<action>\{"function":"send_message","params":\{"messages":\["hi Alice"\],"continue":true\}\}<\/action>\n<\/processed_events>/);
    expect(world).toMatch(/<new_events>\n<observation function="send_message" id="v3-1">\n<status>success<\/status>/);
    expect(promptText(second.slice(0, 1))).toContain("exactly one fenced `json` block");
  });

  it("EN-41 parsing prefers the fenced block, strips prose, balances brackets and repairs with jsonrepair", () => {
    expect(parseV3Answer('Sure!\n```text\nnot this\n```\n```json\n{"actions": [{"function": "a", "params": {"x": 1}}]}\n```\nBye')?.actions).toEqual([{ function: "a", params: { x: 1 } }]);
    expect(parseV3Answer('I will act: {"actions": [{"function": "a", "params": {}}]} and that is all.')?.actions).toEqual([{ function: "a", params: {} }]);
    expect(parseV3Answer('```json\n{"thoughts": {"plan": "p"}, "actions": [{"function": "a", "params": {"t": "cut')).toEqual({ thoughts: { plan: "p" }, actions: [{ function: "a", params: { t: "cut" } }] });
    expect(parseV3Answer("{thoughts: {plan: 'single quotes'}, actions: [{function: 'a', params: {n: 2,},},],}")).toEqual({ thoughts: { plan: "single quotes" }, actions: [{ function: "a", params: { n: 2 } }] });
    expect(parseV3Answer('{"thoughts": {"plan": "x"}}')?.actions).toEqual([]);
    expect(parseV3Answer("I have nothing to say.")).toBeUndefined();
    expect(parseV3Answer('{"actions": "everything"}')).toBeUndefined();
  });

  it("EN-41 streaming buffers until finish; unparseable output becomes text behind the could-not-parse note", async () => {
    const instance = new V3ToolcallInstance(silent);
    const { parts } = await streamOnce(instance, "Hello there, no JSON from me.");
    expect(parts.filter((part) => part.type === "text-delta").map((part) => (part as { delta: string }).delta)).toEqual([`${V3_UNPARSED_NOTE}\nHello there, no JSON from me.`]);
    expect(parts.find((part) => part.type === "finish")).toMatchObject({ finishReason: { unified: "stop" } });

    const ok = await streamOnce(instance, fenced({ thoughts, actions: [{ function: "send_message", params: { messages: ["a"] } }] }));
    const types = ok.parts.map((part) => part.type);
    expect(types.indexOf("text-delta")).toBeLessThan(types.indexOf("tool-call"));
    expect(ok.parts.filter((part) => part.type === "text-delta")).toHaveLength(1);
    expect(ok.parts.find((part) => part.type === "tool-call")).toMatchObject({ toolCallId: "v3-1", toolName: "send_message", input: '{"messages":["a"]}' });
    expect(ok.parts.find((part) => part.type === "finish")).toMatchObject({ finishReason: { unified: "tool-calls" } });
  });

  it("EN-41 history keeps user file parts and media of results as file parts after the observation", async () => {
    const image = new Uint8Array(2048);
    const { request } = await streamOnce(new V3ToolcallInstance(silent), fenced({ actions: [] }), [
      { role: "user", content: [{ type: "text", text: "look" }, { type: "file", data: { type: "data", data: image }, mediaType: "image/jpeg" }] },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "v3-9", toolName: "shot", input: { at: 1 } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "v3-9", toolName: "shot", output: { type: "content", value: [{ type: "text", text: "taken" }, { type: "file", data: { type: "data", data: image }, mediaType: "image/png" }] } }] },
    ]);
    const user = request.prompt.filter((message) => message.role === "user");
    expect(user[0].content.map((part) => part.type)).toEqual(["text", "file"]);
    expect(user[1].content.map((part) => part.type)).toEqual(["text", "file"]);
    expect(promptText(request.prompt)).toContain("taken\n[image/png 2.0 KB (attached below)]");
    expect(promptText(request.prompt)).toContain('<action>{"function":"shot","params":{"at":1}}</action>');
  });

  it("EN-41 catalog: name, desc and params lines, requires no parameters, separated by ---", () => {
    expect(
      renderV3Catalog([
        { type: "function", name: "greet", description: "Say hi\nwarmly.", inputSchema: { type: "object", properties: { who: { type: "string", description: "Name." }, loud: { type: "boolean" } }, required: ["who"] } },
        { type: "function", name: "finish", description: "End.", inputSchema: { type: "object", properties: {} } },
      ]),
    ).toBe("# Functions\n\nname: greet\ndesc: Say hi warmly.\nparams:\n  who: (string) **(required)** Name.\n  loud: (boolean)\n---\nname: finish\ndesc: End.\nparams: requires no parameters");
  });

  it("EN-41 the catalog follows local $refs ($defs, definitions) and shows const values", () => {
    const inputSchema = {
      type: "object",
      properties: { target: { $ref: "#/$defs/target" }, tags: { type: "array", items: { $ref: "#/$defs/tag" } }, kind: { const: "note" } },
      required: ["target"],
      $defs: { target: { type: "string", description: "Where to." }, tag: { enum: ["a", "b"] } },
    } as const;
    expect(renderV3Catalog([{ type: "function", name: "put", description: "Put.", inputSchema }])).toBe(
      '# Functions\n\nname: put\ndesc: Put.\nparams:\n  target: (string) **(required)** Where to.\n  tags: (array of "a" | "b")\n  kind: ("note")',
    );
  });
});
