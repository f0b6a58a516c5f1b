import { appendFile, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent, createEntry, createJsonlStorage, createUserMessage, type AgentEntry, type AgentEvent, type HistoryRetention } from "../src/index.js";
import { recordEvents, recordingLogger, scriptedModel, tempDir } from "./agent-support.js";

let dir: string;
let dispose: () => Promise<void>;
beforeEach(async () => ({ dir, dispose } = await tempDir()));
afterEach(() => dispose());

const STORED = 3_000;

function userEntry(text: string): AgentEntry {
  return createEntry("message", createUserMessage(text));
}

/** `m0`, a `state` (version 7), then `m1` .. up to `count` entries. */
async function writeStream(path: string, count = STORED): Promise<void> {
  const entries = [userEntry("m0"), createEntry("state", { version: 7 })];
  for (let index = 1; index < count - 1; index += 1) entries.push(userEntry(`m${index}`));
  await writeFile(path, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(""));
}

function text(entry: AgentEntry): string {
  return entry.type === "message" && entry.data.role === "user" ? String(entry.data.content) : entry.type;
}

/**
 * Keeps the last `keep` entries and folds a count of every user message it observed: the count is the state a
 * checkpoint must carry, since the entries behind it leave memory.
 */
interface CountingRetention extends HistoryRetention {
  seen: number[];
  users: number;
  resets: number;
  restores: number;
}

function countingRetention(keep: number, settings = "v1"): CountingRetention {
  const seen: number[] = [];
  const retention: CountingRetention = {
    seen,
    users: 0,
    resets: 0,
    restores: 0,
    observe(entry: AgentEntry, position: number) {
      seen.push(position);
      if (entry.type === "message" && entry.data.role === "user") retention.users += 1;
    },
    retainFrom: (entries: readonly AgentEntry[], offset: number) => offset + entries.length - keep,
    reset() {
      retention.resets += 1;
      retention.users = 0;
    },
    save: () => ({ settings, users: retention.users }),
    restore(saved: unknown) {
      const value = saved as { settings?: string; users?: number };
      if (value.settings !== settings || typeof value.users !== "number") return false;
      retention.restores += 1;
      retention.users = value.users;
      return true;
    },
  };
  return retention;
}

/** What a step sees: the tail's first entry, its offset and length. */
function viewer(views: Array<{ first: string; offset: number; length: number }>) {
  return { name: "view", transformEntries: (entries: readonly AgentEntry[], { offset }: { offset: number }) => void views.push({ first: text(entries[0]), offset, length: entries.length }) };
}

async function oneTurn(retention: HistoryRetention, path: string, words = "now") {
  const views: Array<{ first: string; offset: number; length: number }> = [];
  const logger = recordingLogger();
  const agent = createAgent({ model: scriptedModel([{ text: "ok" }]), storage: createJsonlStorage(path, { logger }), history: retention, logger, plugins: [viewer(views)] });
  const events = recordEvents(agent);
  agent.send(createUserMessage(words));
  await agent.wait();
  return { agent, views, events, logger };
}

function appendedSeqs(events: AgentEvent[]): number[] {
  return events.flatMap((event) => (event.type === "message.appended" ? [event.seq] : []));
}

describe("history checkpoints: a restart reads only what was appended since (issue 19)", () => {
  it("a stop saves a checkpoint; the restart restores it, observes only later entries and sees what a whole read sees", async () => {
    const path = join(dir, "events.jsonl");
    await writeStream(path);
    const first = countingRetention(5);
    const before = await oneTurn(first, path);
    await before.agent.stop();
    expect((await stat(join(dir, "events.checkpoint.json"))).isFile()).toBe(true);

    const restarted = countingRetention(5);
    const after = await oneTurn(restarted, path, "again");
    expect(restarted.restores).toBe(1);
    // Nothing before the checkpoint was observed again; the turn's entries were observed at the next positions.
    expect(restarted.seen[0]).toBe(first.seen.length);
    expect(restarted.users).toBe(first.users + 1);
    expect(after.agent.state.get().version).toBe(7);

    // The same step view and seqs as an agent that reads the whole stream.
    await writeFile(join(dir, "events.checkpoint.json"), "");
    const whole = countingRetention(5);
    const control = createAgent({ model: scriptedModel([]), storage: createJsonlStorage(path), history: whole });
    await control.init();
    const fresh = await readFile(path, "utf8");
    expect(whole.seen.length).toBe(fresh.trim().split("\n").length);
    expect(whole.users).toBe(restarted.users);
    expect(after.views[0].offset + after.views[0].length).toBe(first.seen.length + 2);
    expect(appendedSeqs(after.events)[0]).toBe(first.seen.length + 2);
    await Promise.all([after.agent.stop(), control.stop()]);
  });

  it("a first whole read of a long file saves a checkpoint at once, before any stop", async () => {
    const path = join(dir, "events.jsonl");
    await writeStream(path);
    const agent = createAgent({ model: scriptedModel([]), storage: createJsonlStorage(path), history: countingRetention(5) });
    await agent.init();
    // The save runs in the write queue; an append after it has waited for it.
    await agent.storage.append(userEntry("later"));
    expect((await stat(join(dir, "events.checkpoint.json"))).isFile()).toBe(true);
    const restarted = countingRetention(5);
    const again = createAgent({ model: scriptedModel([]), storage: createJsonlStorage(path), history: restarted });
    await again.init();
    expect(restarted.restores).toBe(1);
    expect(restarted.seen).toEqual([STORED]);
    await Promise.all([agent.stop(), again.stop()]);
  });

  it("a crash loses at most the entries after the last periodic checkpoint: the restart reads only those", async () => {
    const path = join(dir, "events.jsonl");
    await writeStream(path, 10);
    const first = countingRetention(5);
    const agent = createAgent({ model: scriptedModel([]), storage: createJsonlStorage(path), history: first });
    await agent.init();
    for (let index = 0; index < 2_500; index += 1) await agent.storage.append(userEntry(`a${index}`));
    // No stop: the process "crashed". Two checkpoints were written on the way (every 1,000 appends).
    const restarted = countingRetention(5);
    const again = createAgent({ model: scriptedModel([]), storage: createJsonlStorage(path), history: restarted });
    await again.init();
    expect(restarted.restores).toBe(1);
    expect(restarted.seen.length).toBeLessThan(1_000);
    expect(restarted.seen.at(-1)).toBe(2_509);
    expect(restarted.users).toBe(first.users);
    await Promise.all([agent.stop(), again.stop()]);
  });

  it("a checkpoint that no longer fits the file is ignored with one log line and the whole stream is read", async () => {
    const path = join(dir, "events.jsonl");
    await writeStream(path);
    await (await oneTurn(countingRetention(5), path)).agent.stop();
    // The file is rewritten (same length, other content): the prefix hash no longer matches.
    const original = await readFile(path, "utf8");
    await writeFile(path, original.replace("m1\"", "x1\""));
    const restarted = countingRetention(5);
    const { agent, logger } = await oneTurn(restarted, path);
    expect(restarted.restores).toBe(0);
    expect(restarted.seen[0]).toBe(0);
    expect(logger.lines.filter(([, line]) => line.includes("events.checkpoint.json")).map(([level, line]) => [level, line.replace(dir, "<dir>")])).toEqual([
      ["info", "<dir>/events.checkpoint.json no longer matches the file's beginning; reading the whole stream"],
    ]);
    await agent.stop();
  });

  it("a checkpoint saved under other settings is refused by the retention: the whole stream is read from a reset", async () => {
    const path = join(dir, "events.jsonl");
    await writeStream(path);
    await (await oneTurn(countingRetention(5, "v1"), path)).agent.stop();
    const other = countingRetention(5, "v2");
    const { agent, logger } = await oneTurn(other, path);
    expect(other.restores).toBe(0);
    expect(other.seen[0]).toBe(0);
    // Every stored user message, both turns' included.
    expect(other.users).toBe(STORED - 1 + 2);
    expect(logger.lines).toContainEqual(["info", "history checkpoint: it does not fit (saved under other settings, or damaged); reading the whole stream"]);
    await agent.stop();
  });

  it("problems of lines inside the checkpoint's prefix are reported again at the restart (AG-8)", async () => {
    const path = join(dir, "events.jsonl");
    await writeStream(path);
    await appendFile(path, "{not json\n");
    await appendFile(path, `${JSON.stringify(userEntry("after"))}\n`);
    await (await oneTurn(countingRetention(5), path)).agent.stop();
    const restarted = countingRetention(5);
    const { agent, events } = await oneTurn(restarted, path);
    expect(restarted.restores).toBe(1);
    const storageErrors = events.flatMap((event) => (event.type === "agent.error" && event.source === "storage" ? [event.message.replace(dir, "<dir>")] : []));
    expect(storageErrors).toEqual([`<dir>/events.jsonl:${STORED + 1}: corrupt line skipped; not a JSON entry with string id and type`]);
    await agent.stop();
  });

  it("a damaged checkpoint is never trusted: each one falls back to the whole read with one log line", async () => {
    const path = join(dir, "events.jsonl");
    const checkpoint = join(dir, "events.checkpoint.json");
    await writeStream(path);
    await (await oneTurn(countingRetention(5), path)).agent.stop();
    const good = JSON.parse(await readFile(checkpoint, "utf8")) as { state: Record<string, unknown> };
    const damaged = [
      (await readFile(checkpoint, "utf8")).slice(0, 200),
      "null",
      JSON.stringify({ ...good, format: 2 }),
      JSON.stringify({ ...good, cursor: { ...(good as unknown as { cursor: object }).cursor, bytes: -1 } }),
      JSON.stringify({ ...good, state: { ...good.state, entries: [{ id: 1 }] } }),
      JSON.stringify({ ...good, state: { ...good.state, offset: "0" } }),
      JSON.stringify({ ...good, state: { ...good.state, latestState: { type: "message" } } }),
      JSON.stringify({ ...good, state: { ...good.state, retention: null } }),
    ];
    for (const text of damaged) {
      await writeFile(checkpoint, text);
      const retention = countingRetention(5);
      const logger = recordingLogger();
      const agent = createAgent({ model: scriptedModel([]), storage: createJsonlStorage(path, { logger }), history: retention, logger });
      await agent.init();
      expect({ text: text.slice(0, 60), restores: retention.restores, first: retention.seen[0] }).toEqual({ text: text.slice(0, 60), restores: 0, first: 0 });
      expect(logger.lines.filter(([level]) => level === "info")).toHaveLength(1);
      // The whole read saved a good checkpoint again; the stop waits for that write.
      await agent.stop();
    }
  });

  it("a retention that throws while restoring has not restored: the whole stream is read", async () => {
    const path = join(dir, "events.jsonl");
    await writeStream(path);
    await (await oneTurn(countingRetention(5), path)).agent.stop();
    const throwing = countingRetention(5);
    throwing.restore = () => {
      throw new Error("bad saved state");
    };
    const agent = createAgent({ model: scriptedModel([]), storage: createJsonlStorage(path), history: throwing });
    await agent.init();
    expect(throwing.seen[0]).toBe(0);
    // The stream and the first run's turn (its start, the message, the reply, its end).
    expect(throwing.seen).toHaveLength(STORED + 4);
    await agent.stop();
  });

  it("clear() deletes the checkpoint with the stream", async () => {
    const path = join(dir, "events.jsonl");
    await writeStream(path);
    const { agent } = await oneTurn(countingRetention(5), path);
    await agent.stop();
    await agent.init();
    await agent.clear();
    await expect(stat(join(dir, "events.checkpoint.json"))).rejects.toMatchObject({ code: "ENOENT" });
    await agent.stop();
  });

  it("a short stream saves no checkpoint: it reads in milliseconds", async () => {
    const path = join(dir, "events.jsonl");
    await writeStream(path, 500);
    const { agent } = await oneTurn(countingRetention(5), path);
    await agent.stop();
    await expect(stat(join(dir, "events.checkpoint.json"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("a retention that keeps most of the stream saves no checkpoint: reading it would cost what the file costs", async () => {
    const path = join(dir, "events.jsonl");
    await writeStream(path);
    const { agent } = await oneTurn(countingRetention(STORED), path);
    await agent.stop();
    await expect(stat(join(dir, "events.checkpoint.json"))).rejects.toMatchObject({ code: "ENOENT" });
  });
});
