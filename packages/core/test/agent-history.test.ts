import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent, createEntry, createJsonlStorage, createUserMessage, type AgentEntry, type HistoryRetention } from "../src/index.js";
import { inspectAgent } from "../src/diagnostics.js";
import { promptTexts, scriptedModel, tempDir } from "./agent-support.js";

let dir: string;
let dispose: () => Promise<void>;
beforeEach(async () => ({ dir, dispose } = await tempDir()));
afterEach(() => dispose());

const STORED = 3_000;

/** A stream whose second entry is a `state` (version 7), then user messages `m1` .. up to `STORED` entries. */
async function writeStream(path: string): Promise<void> {
  const entries: AgentEntry[] = [createEntry("message", createUserMessage("m0")), createEntry("state", { version: 7 })];
  for (let index = 1; index < STORED - 1; index += 1) entries.push(createEntry("message", createUserMessage(`m${index}`)));
  await writeFile(path, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(""));
}

/** A user message's text, or the entry's type. */
function text(entry: AgentEntry): string {
  return entry.type === "message" && entry.data.role === "user" ? String(entry.data.content) : entry.type;
}

/** Keeps the last `keep` entries; records what it observed. */
function lastEntries(keep: number): HistoryRetention & { seen: Array<[string, number]>; resets: number } {
  const seen: Array<[string, number]> = [];
  return {
    seen,
    resets: 0,
    observe: (entry, position) => void seen.push([text(entry), position]),
    retainFrom: (entries, offset) => offset + entries.length - keep,
    reset() {
      this.resets += 1;
    },
  };
}

describe("AgentConfig.history: memory bounded by what a retention keeps (issue 19)", () => {
  it("the first read is streamed through observe; steps see the kept tail with its offset; state and storage stay whole", async () => {
    const path = join(dir, "events.jsonl");
    await writeStream(path);
    const retention = lastEntries(5);
    const views: Array<{ first: string; offset: number; length: number }> = [];
    const model = scriptedModel([{ text: "ok" }]);
    const agent = createAgent({
      model,
      storage: createJsonlStorage(path),
      history: retention,
      plugins: [
        {
          name: "view",
          transformEntries(entries, { offset }) {
            const first = entries[0];
            views.push({ first: text(first), offset, length: entries.length });
          },
        },
      ],
    });
    await agent.init();
    // Every stored entry observed once, in order, at its position.
    expect(retention.seen).toHaveLength(STORED);
    expect(retention.seen.slice(0, 3)).toEqual([["m0", 0], ["state", 1], ["m1", 2]]);
    expect(retention.seen.at(-1)).toEqual([`m${STORED - 2}`, STORED - 1]);
    // The state entry left memory long ago, yet it is the one restored.
    expect(agent.state.get().version).toBe(7);
    expect(inspectAgent(agent).historySize()).toBeLessThanOrEqual(1024);

    agent.send(createUserMessage("now"));
    await agent.wait();
    const view = views[0];
    expect(view.offset + view.length).toBe(STORED + 2);
    expect(view.first).toBe(`m${view.offset - 1}`);
    // Only the tail reached the model, and the appended entries were observed at the following positions.
    expect(promptTexts(model.prompts[0])).not.toContain("user:m0");
    expect(retention.seen.slice(STORED, STORED + 2)).toEqual([["event", STORED], ["now", STORED + 1]]);
    // Storage is the whole stream, read from disk.
    expect(await agent.storage.read()).toHaveLength(retention.seen.length);
    let scanned = 0;
    await agent.storage.scan!(() => void (scanned += 1));
    expect(scanned).toBe(retention.seen.length);

    await agent.clear();
    expect(retention.resets).toBe(1);
    await agent.stop();
  });

  it("without a retention every entry stays in memory and transformEntries sees offset 0", async () => {
    const path = join(dir, "events.jsonl");
    await writeStream(path);
    const offsets: number[] = [];
    const agent = createAgent({
      model: scriptedModel([{ text: "ok" }]),
      storage: createJsonlStorage(path),
      plugins: [{ name: "view", transformEntries: (entries, { offset }) => void offsets.push(offset, entries.length) }],
    });
    agent.send(createUserMessage("now"));
    await agent.wait();
    expect(offsets).toEqual([0, STORED + 2]);
    // The turn added its start, the message, the reply and its end.
    expect(inspectAgent(agent).historySize()).toBe(STORED + 4);
    await agent.stop();
  });
});
