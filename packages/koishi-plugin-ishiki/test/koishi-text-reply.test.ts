// Issue 20: a turn that ends with plain text and no send_message is never silent. Through a real Koishi app with the
// mock bot: `nudge` (the default) runs one more step after a note, `send` delivers the text through send_message,
// `drop` keeps it private with one info line; engines with their own reply path are left alone.
import { afterEach, describe, expect, it } from "vitest";
import { ProfileSchema } from "../src/koishi/profile-schema.js";
import { resolveProfile } from "../src/profile/index.js";
import { TEXT_REPLY_NOTE, textReplyMode } from "../src/runtime/text-reply.js";
import { readEvents } from "./runtime-app.js";
import { startMockKernel, until, type MockKernel } from "./koishi-app.js";
import type { ScriptedReply } from "../../core/test/agent-support.js";

let kernel: MockKernel | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

const channel = { mode: "channel" as const, platform: "mock", selfId: "bot", channelId: "c", isDirect: false };

async function turn(profile: Record<string, unknown>, replies: ScriptedReply[]) {
  kernel = await startMockKernel({ profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, typing: { minDelay: 0, maxDelay: 0 }, ...profile } }, replies });
  await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
  const sent: string[] = [];
  kernel.app.ishiki.outbound = { send: async (_address, content) => (sent.push(content), [`id-${sent.length}`]) };
  const runtime = await kernel.app.ishiki.runtime("p", channel);
  runtime.wake("Alice: hello");
  await runtime.agent.wait();
  return { sent, prompts: kernel.model.prompts, entries: await readEvents(runtime.home), k: kernel };
}

const lastUserText = (prompt: { prompt: Array<{ role: string; content: unknown }> }) => JSON.stringify(prompt.prompt.filter((message) => message.role === "user").at(-1));

describe("textReply (issue 20)", () => {
  it("nudge (default): plain text gets one more step with the send_message note, and the reply then reaches the chat", async () => {
    const { sent, prompts, entries } = await turn({}, [{ text: "Hi Alice!" }, { calls: [{ id: "s", name: "send_message", input: { messages: ["Hi Alice!"] } }] }]);
    expect(sent).toEqual(["Hi Alice!"]);
    expect(prompts).toHaveLength(2);
    expect(lastUserText(prompts[1])).toContain("only send_message reaches".replace("only", "Only"));
    // The note is part of the history, after the text it answers.
    const roles = entries.filter((entry) => entry.type === "message").map((entry) => (entry.data.role === "user" ? `user:${String(entry.data.content)}` : entry.data.role));
    expect(roles.slice(-4)).toEqual(["assistant", `user:${TEXT_REPLY_NOTE}`, "assistant", "tool"]);
  });

  it("nudge asks once: text again after the note ends the turn with one info line", async () => {
    const { sent, prompts, k } = await turn({ textReply: "nudge" }, [{ text: "Hi!" }, { text: "Hi again!" }]);
    expect(sent).toEqual([]);
    expect(prompts).toHaveLength(2);
    expect(k.logs.filter(([, line]) => line.includes("nothing reached the chat"))).toEqual([["info", expect.stringContaining("ended with plain text and no send_message after the send_message note")]]);
  });

  it("nudge leaves a turn alone whose program already sent: send_message from codemode counts", async () => {
    const program = 'await tools.send_message({ messages: ["from the program"] }); return 1;';
    const { sent, prompts } = await turn({ codemode: { enable: true } }, [{ calls: [{ id: "c", name: "codemode", input: { js: program } }] }, { text: "Done, I told them." }]);
    expect(sent).toEqual(["from the program"]);
    expect(prompts).toHaveLength(2);
  });

  it("finish stays silent without a note", async () => {
    const { sent, prompts } = await turn({}, [{ text: "thinking aloud", calls: [{ id: "f", name: "finish" }] }]);
    expect(sent).toEqual([]);
    expect(prompts).toHaveLength(1);
  });

  it("send: the text itself goes out through send_message, as literal text", async () => {
    const { sent, prompts, k } = await turn({ textReply: "send" }, [{ text: "Use <b> for bold" }]);
    expect(sent).toEqual(["Use &lt;b&gt; for bold"]);
    expect(prompts).toHaveLength(1);
    expect(k.logged("plain-text reply sent through send_message (textReply: send)")).toBe(true);
    expect(JSON.stringify(prompts[0].prompt[0])).toContain("plain text that ends a turn without send_message is sent");
  });

  it("drop: nothing is sent, and one info line says so", async () => {
    const { sent, prompts, k } = await turn({ textReply: "drop" }, [{ text: "Hi!" }]);
    expect(sent).toEqual([]);
    expect(prompts).toHaveLength(1);
    expect(k.logs.filter(([, line]) => line.includes("nothing reached the chat"))).toEqual([["info", expect.stringContaining("(textReply: drop)")]]);
  });

  it("engines with their own reply path (v3, narrative) keep it; cross mode cannot send without a target and nudges", () => {
    expect(textReplyMode({ textReply: "nudge", toolcall: { engine: "v3" } }, false)).toBeUndefined();
    expect(textReplyMode({ textReply: "send", toolcall: { engine: "narrative" } }, false)).toBeUndefined();
    expect(textReplyMode({ textReply: "send", toolcall: { engine: "hermes" } }, false)).toBe("send");
    expect(textReplyMode({ textReply: "send", toolcall: { engine: "native" } }, true)).toBe("nudge");
  });

  it("the profile key defaults to nudge, rejects other values and is in the console form with zh-CN and en-US text", () => {
    expect(resolveProfile("p", { model: "m", channels: { "a:b": ["*"] } }).textReply).toBe("nudge");
    expect(() => resolveProfile("p", { model: "m", channels: { "a:b": ["*"] }, textReply: "loud" })).toThrow("textReply: expected nudge, send, drop");
    expect(ProfileSchema({ model: "m", channels: { "a:b": ["*"] } }).textReply).toBe("nudge");
    const dict = ProfileSchema.dict as Record<string, { meta: { description?: Record<string, string> } }>;
    expect(Object.keys(dict.textReply.meta.description ?? {})).toEqual(expect.arrayContaining(["zh-CN", "en-US"]));
  });
});
