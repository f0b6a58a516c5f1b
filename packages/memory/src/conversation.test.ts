import { createCustomMessage } from "koishi-plugin-ishiki";
import type { AgentEvent, AgentRuntime } from "koishi-plugin-ishiki";
import { describe, expect, it } from "vitest";
import { Conversation } from "./conversation.js";

/** A runtime handle whose channel the test drives, with a stored stream for the lazy seed. */
function handle(stored: unknown[] = []) {
  let listener: ((event: AgentEvent) => void) | undefined;
  const runtime = {
    agent: {
      channel: { subscribe: (_name: string, next: (event: AgentEvent) => void) => ((listener = next), () => (listener = undefined)) },
      storage: { read: async () => stored },
    },
  } as unknown as AgentRuntime;
  const fact = (messageId: string, userId: string, timestamp: number, name = userId) =>
    listener?.({
      type: "message.appended",
      entryId: messageId,
      seq: timestamp,
      message: createCustomMessage("ishiki.message.created", { timestamp, platform: "mock", selfId: "bot", channelId: "g1", isDirect: false, messageId, content: "hi", user: { id: userId, name } }),
    });
  return { runtime, fact, subscribed: () => listener !== undefined };
}

describe("the conversation a runtime's memory follows", () => {
  it("active speakers are the latest ones within the window at the given time, the bot excluded", () => {
    const conversation = new Conversation();
    const { runtime, fact, subscribed } = handle();
    const stop = conversation.attach(runtime);
    fact("m1", "u1", 1_000, "Ann");
    fact("m2", "u2", 2_000);
    fact("m3", "bot", 3_000);
    fact("m4", "u1", 4_000, "Ann");
    expect(conversation.activeSpeakers(5, 10_000, 5_000).map((speaker) => [speaker.userId, speaker.at])).toEqual([["u1", 4_000], ["u2", 2_000]]);
    expect(conversation.activeSpeakers(1, 10_000, 5_000).map((speaker) => speaker.userId)).toEqual(["u1"]);
    expect(conversation.activeSpeakers(5, 2_500, 5_000).map((speaker) => speaker.userId)).toEqual(["u1"]);
    expect(conversation.activeSpeakers(5, 10_000, 100_000)).toEqual([]);
    stop();
    expect(subscribed()).toBe(false);
  });

  it("a source id not seen since attach is looked up once in the stored stream", async () => {
    const old = createCustomMessage("ishiki.message.created", { timestamp: 1, platform: "mock", selfId: "bot", channelId: "g1", isDirect: false, messageId: "old", content: "x", user: { id: "u1", name: "" } });
    let reads = 0;
    const { runtime } = handle([{ type: "message", data: old }]);
    const storage = runtime.agent.storage as unknown as { read(): Promise<unknown[]> };
    const read = storage.read.bind(storage);
    storage.read = async () => ((reads += 1), read());
    const conversation = new Conversation();
    conversation.attach(runtime);
    expect((await conversation.message("#old"))?.user.id).toBe("u1");
    expect(await conversation.message("missing")).toBeUndefined();
    expect(reads).toBe(1);
  });
});
