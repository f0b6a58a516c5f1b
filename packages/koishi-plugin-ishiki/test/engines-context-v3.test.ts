import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAssistantMessage, createCustomMessage, createEntry, createSystemMessage, createToolMessage, createUserMessage, type AgentEntry, type AgentMessage } from "@yesimagent/core";
import { v3Window } from "../src/engines/context/v3-window.js";
import { renderWorldState } from "../src/engines/context/v3-world-state.js";
import { formatStamp } from "../src/engines/shared/index.js";
import { promptTexts } from "../../core/test/agent-support.js";
import { channel, fact, logged, startActive, startKernel, until, type KernelApp } from "./runtime-app.js";

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

const send = (id: string, text: string) => ({ calls: [{ id, name: "send_message", input: { messages: [text] } }] });
const profile = (v3: Record<string, unknown>) => ({ p: { model: "mock:m", channels: { "mock:bot": ["*"] }, context: { engine: "v3", v3 } } });

describe("v3 context engine (EN-18 .. EN-20)", () => {
  it("EN-18 EN-19 EN-20 a runtime sees one world-state message, old turns' actions dropped, memory blocks in the instructions", async () => {
    kernel = await startKernel({ profiles: profile({ keepFullTurnCount: 1 }), replies: [send("a1", "first reply"), send("a2", "second reply"), { calls: [{ id: "f", name: "finish" }] }] });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
    const memory = join(kernel.dir, "profiles", "p", "memory");
    await mkdir(memory, { recursive: true });
    await writeFile(join(memory, "a-persona.md"), "---\nlabel: persona\ntitle: Who I am\ndescription: Stable facts\n---\nI am Ishiki.\n");
    await writeFile(join(memory, "b-dup.md"), "---\nlabel: persona\n---\nshadowed\n");
    await writeFile(join(memory, "c-bad.md"), "---\nlabel: 9lives\n---\nunsafe\n");
    await writeFile(join(memory, "notes.txt"), "Alice likes tea.");
    await writeFile(join(memory, "ignored.json"), "{}");
    const runtime = await kernel.app.ishiki.runtime("p", channel);

    const hello = fact("hello bot");
    await runtime.deliver(hello);
    runtime.wake();
    await runtime.agent.wait();
    await runtime.deliver(fact("me too", { user: { id: "u2", name: "Bob" } }));
    runtime.wake();
    await runtime.agent.wait();
    await writeFile(join(memory, "notes.txt"), "Alice likes coffee now.");
    runtime.wake();
    await runtime.agent.wait();

    expect(kernel.outbound.sent.map((sent) => sent.content)).toEqual(["first reply", "second reply"]);
    const prompts = kernel.model.prompts.map((prompt) => promptTexts(prompt));
    for (const prompt of prompts) expect(prompt.map((line) => line.slice(0, line.indexOf(":")))).toEqual(["system", "user"]);

    const [first, second, third] = prompts.map((prompt) => prompt[1]);
    expect(first).toContain('<channel id="c1" type="guild" platform="mock">\n<users>\n<user id="u1">Alice</user>\n</users>');
    expect(first).toContain(`<processed_events>\n(Nothing yet: you have not acted in this window.)\n</processed_events>\n<new_events>\n<message>[${(hello.data as { messageId: string }).messageId}|${formatStamp(hello.timestamp)}|Alice(u1)] hello bot</message>`);
    expect(first).toMatch(/<system_event>\[[\d\- :]+\|System\] Continue\.<\/system_event>\n<\/new_events>/);

    // Turn 2: turn 1 up to its call is processed; its observation and Bob's message are new.
    expect(second).toMatch(/<processed_events>[\s\S]*<action>\{"function":"send_message","params":\{"messages":\["first reply"\]\}\}<\/action>\n<\/processed_events>/);
    expect(second).toMatch(/<new_events>\n<observation function="send_message" id="a1">\n<status>success<\/status>[\s\S]*Bob\(u2\)\] me too/);
    expect(second).toContain('<user id="u2">Bob</user>');

    // Turn 3 keeps only the last turn with actions (keepFullTurnCount 1); the facts stay.
    expect(third).not.toContain("first reply");
    expect(third).toContain('"second reply"');
    expect(third).toContain("hello bot");

    // EN-20: sorted files, first label wins, unsafe labels skipped with a warning, re-read every turn.
    expect(prompts[0][0]).toContain('<memory_block label="persona" title="Who I am" description="Stable facts">\nI am Ishiki.\n</memory_block>\n<memory_block label="notes">\nAlice likes tea.\n</memory_block>');
    expect(prompts[0][0]).not.toContain("shadowed");
    expect(prompts[0][0]).not.toContain("unsafe");
    expect(prompts[2][0]).toContain("Alice likes coffee now.");
    expect(logged(kernel, 'context.v3: memory/b-dup.md: label "persona" already used by an earlier file', "warn")).toBe(true);
    expect(logged(kernel, 'context.v3: memory/c-bad.md: label "9lives" is not safe', "warn")).toBe(true);
    expect(kernel.logs.filter(([, line]) => line.includes("c-bad.md"))).toHaveLength(1);
  });

  it("EN-20 memoryBlocks: false adds nothing to the instructions", async () => {
    kernel = await startActive("p", { profiles: profile({ memoryBlocks: false }) });
    const memory = join(kernel.dir, "profiles", "p", "memory");
    await mkdir(memory, { recursive: true });
    await writeFile(join(memory, "notes.md"), "secret notes");
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    runtime.wake();
    await runtime.agent.wait();
    expect(promptTexts(kernel.model.prompts[0])[0]).not.toContain("secret notes");
  });

  it("EN-5 EN-18 an invalid v3 block fails activation", async () => {
    kernel = await startKernel({ profiles: profile({ maxMessages: 0 }) });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "failed");
    expect(logged(kernel, "context.v3.maxMessages: expected at least 1", "error")).toBe(true);
  });

  it("EN-18 the window keeps the last maxMessages messages and whole recent turns' assistant and tool messages", () => {
    const m = (data: AgentMessage, turnId?: string): AgentEntry => createEntry("message", data, turnId === undefined ? {} : { turnId });
    const user = (text: string, turnId?: string) => m(createUserMessage(text), turnId);
    const call = (id: string, turnId: string) => m(createAssistantMessage([{ type: "tool-call", toolCallId: id, toolName: "t", input: {} }]), turnId);
    const result = (id: string, turnId: string) => m(createToolMessage([{ type: "tool-result", toolCallId: id, toolName: "t", output: { type: "json", value: 1 } }]), turnId);
    const event = createEntry("event", { type: "turn.start", turnId: "t1" });
    const entries = [user("a"), event, user("go1", "t1"), call("c1", "t1"), result("c1", "t1"), user("go2", "t2"), user("go3", "t3"), call("c3", "t3"), result("c3", "t3"), user("b")];
    const label = (list: AgentEntry[]) => list.map((entry) => (entry.type === "message" ? (entry.data.role === "user" ? String(entry.data.content) : `${entry.data.role}:${entry.turnId}`) : entry.type));

    expect(label(v3Window(entries, { maxMessages: 50, keepFullTurnCount: 1 }))).toEqual(["a", "event", "go1", "go2", "go3", "assistant:t3", "tool:t3", "b"]);
    expect(label(v3Window(entries, { maxMessages: 50, keepFullTurnCount: 0 }))).toEqual(label(entries));
    expect(label(v3Window(entries, { maxMessages: 4, keepFullTurnCount: 2 }))).toEqual(["event", "go3", "assistant:t3", "tool:t3", "b"]);
    expect(v3Window(entries, { maxMessages: 50, keepFullTurnCount: 2 })[3]).toBe(entries[3]);
  });

  it("EN-19 EN-8 private channels, retractions, media as [type size]; attachments and catalogs follow; other custom messages hidden", () => {
    const at = new Date(2026, 10, 30, 9, 5).getTime();
    const created = (messageId: string, content: string, user = { id: "u1", name: "Alice" }) =>
      createCustomMessage("ishiki.message.created", { timestamp: at, platform: "qq", selfId: "bot", channelId: "d1", isDirect: true, messageId, content, user });
    const attachment = createCustomMessage("ishiki.attachment", { source: "tool", toolName: "shot", toolCallId: "c1", items: [] });
    const catalog = createCustomMessage("ishiki.tools.catalog", { version: 1, kind: "baseline", mode: "direct", added: [], removed: [], visible: [], text: "catalog" });
    const system = createSystemMessage("sys");
    const messages: AgentMessage[] = [
      system,
      created("m1", "look"),
      createCustomMessage("ishiki.message.deleted", { timestamp: at, platform: "qq", selfId: "bot", channelId: "d1", messageId: "m0", userId: "u1", operatorId: "u1" }),
      createAssistantMessage([{ type: "text", text: "Taking a picture." }, { type: "tool-call", toolCallId: "c1", toolName: "shot", input: { zoom: 2 } }], { timestamp: at }),
      createToolMessage([{ type: "tool-result", toolCallId: "c1", toolName: "shot", output: { type: "content", value: [{ type: "text", text: "done" }, { type: "file-data", data: "A".repeat(4096), mediaType: "image/png" }] } }]),
      attachment,
      { id: "x", timestamp: at, role: "custom", type: "someone.private", data: { secret: 1 } } as unknown as AgentMessage,
      catalog,
    ];
    const out = renderWorldState(messages, { mode: "channel", platform: "qq", selfId: "bot", channelId: "d1", isDirect: true });
    expect(out[0]).toBe(system);
    expect(out.slice(2)).toEqual([attachment, catalog]);
    const text = String(out[1].role === "user" ? out[1].content : "");
    expect(text).toBe(
      [
        '<channel id="d1" type="private" platform="qq">',
        "<users>",
        '<user id="u1">Alice</user>',
        "</users>",
        "<working_memory>",
        "<processed_events>",
        "<message>[m1|11-30 09:05|Alice(u1)] look</message>",
        "<system_event>[11-30 09:05|System] Alice(u1) retracted their message #m0</system_event>",
        "<assistant>[11-30 09:05|You] Taking a picture.</assistant>",
        '<action>{"function":"shot","params":{"zoom":2}}</action>',
        "</processed_events>",
        "<new_events>",
        '<observation function="shot" id="c1">',
        "<status>success</status>",
        "<result>done\n[image/png 3.0 KB]</result>",
        "</observation>",
        "</new_events>",
        "</working_memory>",
        "</channel>",
      ].join("\n"),
    );
    expect(text).not.toContain("secret");
  });

  it("EN-19 with no one speaking and nothing new the empty sections are explained; cross mode heads runs by channel", () => {
    const reply = createAssistantMessage([{ type: "tool-call", toolCallId: "c", toolName: "finish", input: {} }]);
    const [only] = renderWorldState([reply], { mode: "channel", platform: "qq", selfId: "bot", channelId: "g", isDirect: false });
    const text = String(only.role === "user" ? only.content : "");
    expect(text).toContain("<users>\n(No one has spoken in this window.)\n</users>");
    expect(text).toContain("<new_events>\n(No new events since your last action.)\n</new_events>");
    const message = (channelId: string) => createCustomMessage("ishiki.message.created", { timestamp: 0, platform: "qq", selfId: "bot", channelId, isDirect: false, messageId: channelId, content: "x", user: { id: "u", name: "" } });
    const [cross] = renderWorldState([message("g1"), message("g2")], { mode: "cross", accounts: { "qq:bot": ["*"] } });
    const crossText = String(cross.role === "user" ? cross.content : "");
    expect(crossText).toContain('<channel id="*" type="cross" platform="qq:bot">');
    expect(crossText).toMatch(/\[#qq:bot\/g1\]\n<message>\[g1\|[^|]+\|u\] x<\/message>\n\[#qq:bot\/g2\]/);
    expect(renderWorldState([], { mode: "cross", accounts: {} })).toEqual([]);
  });
});
