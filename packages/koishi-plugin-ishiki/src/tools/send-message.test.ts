import { describe, expect, it } from "vitest";
import type { ToolExecutionOptions } from "ai";
import { createMemoryOutboundPort } from "./memory-outbound-port.js";
import { createSendMessageTool, type SendMessageToolOptions } from "./send-message.js";
import type { SendMessageInput, SendMessageResult } from "./send-message-schema.js";

const options = { toolCallId: "c", messages: [] } as unknown as ToolExecutionOptions<never>;
const address = { platform: "mock", selfId: "bot", channelId: "c1" };

async function send(
  input: SendMessageInput,
  fail?: (content: string) => boolean,
  shaping: Pick<SendMessageToolOptions, "prepare" | "pause"> = {},
): Promise<{ result: SendMessageResult; sent: string[] }> {
  const port = createMemoryOutboundPort();
  if (fail) port.fail = (_address, content) => (fail(content) ? new Error(`rejected ${content}`) : undefined);
  const tool = createSendMessageTool({ port, cross: false, resolveTarget: () => address, ...shaping });
  const result = (await tool.execute!(input as never, options)) as SendMessageResult;
  return { result, sent: port.sent.map((message) => message.content) };
}

describe("send_message over an outbound port (KP-30 .. KP-32, EN-44's input)", () => {
  it("sends each message in order and returns the platform ids", async () => {
    expect(await send({ messages: ["one", "<b>two</b>"] })).toEqual({ result: { ok: true, ids: ["sent-1", "sent-2"] }, sent: ["one", "<b>two</b>"] });
  });

  it("raw mode escapes markup so it reaches the chat literally", async () => {
    expect((await send({ messages: ["a <b> & c"], mode: "raw" })).sent).toEqual(["a &lt;b&gt; &amp; c"]);
  });

  it("stops at the first failure and reports what was sent", async () => {
    const { result, sent } = await send({ messages: ["ok", "bad", "never"] }, (content) => content === "bad");
    expect(result).toEqual({ ok: false, error: { name: "Error", message: "rejected bad" }, sent: ["sent-1"], failedAt: 1 });
    expect(sent).toEqual(["ok"]);
  });

  it("cross mode requires a target in its input schema", async () => {
    const tool = createSendMessageTool({ port: createMemoryOutboundPort(), cross: true, resolveTarget: () => address });
    const schema = tool.inputSchema as unknown as { safeParse(value: unknown): { success: boolean } };
    expect(schema.safeParse({ messages: ["x"] }).success).toBe(false);
    expect(schema.safeParse({ messages: ["x"], target: { sid: "mock:bot", channelId: "c1" } }).success).toBe(true);
    expect(schema.safeParse({ messages: ["x"], target: { sid: "mock:bot", channelId: "c1", extra: 1 } }).success).toBe(false);
  });

  // Stands in for the runtime's media resolution: drops every `<img src="file:…"/>`.
  const dropFiles: SendMessageToolOptions["prepare"] = async (content) => {
    const dropped = [...content.matchAll(/<img src="(file:[^"]*)"\/>/g)].map((match) => ({ src: match[1], code: "file_scheme" }));
    return { content: content.replace(/<img src="file:[^"]*"\/>/g, "").trim(), dropped };
  };

  it("KP-31 KP-32 returns the dropped media sources and skips a message left empty", async () => {
    const { result, sent } = await send({ messages: ['a <img src="file:///x"/>', '<img src="file:///y"/>', "b"] }, undefined, { prepare: dropFiles });
    expect(sent).toEqual(["a", "b"]);
    expect(result).toEqual({
      ok: true,
      ids: ["sent-1", "sent-2"],
      dropped: [
        { src: "file:///x", code: "file_scheme" },
        { src: "file:///y", code: "file_scheme" },
      ],
    });
    expect((await send({ messages: ["plain"] }, undefined, { prepare: dropFiles })).result).toEqual({ ok: true, ids: ["sent-1"] });
  });

  it("KP-32 a failure keeps the dropped sources of the messages up to it", async () => {
    const { result } = await send({ messages: ['<img src="file:///x"/> ok', '<img src="file:///y"/> bad', "never"] }, (content) => content.endsWith("bad"), { prepare: dropFiles });
    expect(result).toEqual({
      ok: false,
      error: { name: "Error", message: "rejected bad" },
      sent: ["sent-1"],
      failedAt: 1,
      dropped: [
        { src: "file:///x", code: "file_scheme" },
        { src: "file:///y", code: "file_scheme" },
      ],
    });
  });

  it("KP-33 pauses before each message of one call after the first one sent", async () => {
    const paused: string[] = [];
    const pause = (content: string) => (paused.push(content), 1);
    await send({ messages: ['<img src="file:///x"/>', "one", "two", "three"] }, undefined, { prepare: dropFiles, pause });
    expect(paused).toEqual(["two", "three"]);
  });
});
