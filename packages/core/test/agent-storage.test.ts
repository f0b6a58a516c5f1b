import { appendFile, mkdir, readFile, rename, rmdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createAgent,
  createEntry,
  createJsonlStorage,
  createMemoryStorage,
  createUserMessage,
  type AgentEntry,
  type AgentEvent,
} from "../src/index.js";
import { inspectAgent } from "../src/diagnostics.js";
import { recordEvents, recordingLogger, scriptedModel, tempDir } from "./agent-support.js";

let dir: string;
let dispose: () => Promise<void>;
beforeEach(async () => ({ dir, dispose } = await tempDir()));
afterEach(() => dispose());

const line = (entry: AgentEntry): string => `${JSON.stringify(entry)}\n`;

describe("entries and events.jsonl", () => {
  it("AG-1 createEntry defaults id and timestamp and serialises keys in order without undefined ones", async () => {
    const before = Date.now();
    const entry = createEntry("message", createUserMessage("hi"), { turnId: "t1" });
    expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(entry.timestamp).toBeGreaterThanOrEqual(before);
    const path = join(dir, "a", "events.jsonl");
    const storage = createJsonlStorage(path);
    // Built in a scrambled key order on purpose: the file must still follow AG-1.
    const scrambled = { turnId: "t1", timestamp: 5, data: { version: 1 }, type: "state", id: "e1", parentId: undefined } as unknown as AgentEntry;
    await storage.append(entry, scrambled);
    const lines = (await readFile(path, "utf8")).split("\n");
    expect(Object.keys(JSON.parse(lines[0]))).toEqual(["id", "type", "data", "timestamp", "turnId"]);
    expect(lines[1]).toBe('{"id":"e1","type":"state","data":{"version":1},"timestamp":5,"turnId":"t1"}');
  });

  it("AG-5 AG-6 writes one newline-terminated JSON object per entry, creating the directory, in one append", async () => {
    const path = join(dir, "deep", "er", "events.jsonl");
    const storage = createJsonlStorage(path);
    await storage.append();
    await expect(stat(path)).rejects.toThrow();
    const entries = [createEntry("message", createUserMessage("a")), createEntry("message", createUserMessage("b"))];
    await storage.append(...entries);
    const text = await readFile(path, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    expect(text.split("\n").filter(Boolean).map((l) => JSON.parse(l).data.content)).toEqual(["a", "b"]);
    expect(await storage.read()).toEqual(entries);
  });

  it("AG-7 a missing file reads as an empty stream", async () => {
    expect(await createJsonlStorage(join(dir, "none.jsonl")).read()).toEqual([]);
  });

  it("AG-7 AG-8 a torn final line is ignored, reported and cut off before the next append", async () => {
    const path = join(dir, "events.jsonl");
    const kept = createEntry("message", createUserMessage("kept"));
    await writeFile(path, `${line(kept)}{"id":"x","type":"mess`);
    const logger = recordingLogger();
    const storage = createJsonlStorage(path, { logger });
    const reports: string[] = [];
    storage.onReport?.((message) => reports.push(message));
    expect(await storage.read()).toEqual([kept]);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain(":2: torn final line");
    expect(logger.lines).toEqual([["warn", reports[0]]]);
    const next = createEntry("message", createUserMessage("next"));
    await storage.append(next);
    expect(await readFile(path, "utf8")).toBe(line(kept) + line(next));
  });

  it("AG-7 a torn tail is cut even when the first call is an append", async () => {
    const path = join(dir, "events.jsonl");
    const kept = createEntry("message", createUserMessage("kept"));
    await writeFile(path, `${line(kept)}{"id":"y"`);
    const storage = createJsonlStorage(path);
    const next = createEntry("message", createUserMessage("next"));
    await storage.append(next);
    expect(await storage.read()).toEqual([kept, next]);
  });

  it("AG-7 a corrupt middle line is skipped and reported with its 1-based number; nothing else is lost", async () => {
    const path = join(dir, "events.jsonl");
    const a = createEntry("message", createUserMessage("a"));
    const b = createEntry("message", createUserMessage("b"));
    const c = createEntry("message", createUserMessage("c"));
    await writeFile(path, `${line(a)}not json\n{"id":3,"type":"message"}\n${line(b)}[1,2]\n${line(c)}`);
    const storage = createJsonlStorage(path);
    const reports: string[] = [];
    storage.onReport?.((message) => reports.push(message));
    expect(await storage.read()).toEqual([a, b, c]);
    expect(reports.map((r) => r.match(/:(\d+): /)?.[1])).toEqual(["2", "3", "5"]);
    // Middle lines are never cut: an append keeps every byte before it.
    const before = await readFile(path, "utf8");
    const d = createEntry("message", createUserMessage("d"));
    await storage.append(d);
    expect(await readFile(path, "utf8")).toBe(before + line(d));
  });

  it("AG-7 an unparsable final line with its newline is ignored and cut off", async () => {
    const path = join(dir, "events.jsonl");
    const a = createEntry("message", createUserMessage("a"));
    await writeFile(path, `${line(a)}{broken}\n`);
    const storage = createJsonlStorage(path);
    expect(await storage.read()).toEqual([a]);
    const b = createEntry("message", createUserMessage("b"));
    await storage.append(b);
    expect(await readFile(path, "utf8")).toBe(line(a) + line(b));
  });

  it("AG-8 storage reports reach the agent as a non-persisted agent.error", async () => {
    const path = join(dir, "events.jsonl");
    await writeFile(path, `${line(createEntry("message", createUserMessage("a")))}garbage\n${line(createEntry("message", createUserMessage("b")))}`);
    const agent = createAgent({ model: scriptedModel([{ text: "ok" }]), storage: createJsonlStorage(path) });
    const events = recordEvents(agent);
    await agent.init();
    const errors = events.filter((e): e is Extract<AgentEvent, { type: "agent.error" }> => e.type === "agent.error");
    expect(errors).toEqual([{ type: "agent.error", source: "storage", message: expect.stringContaining(":2: corrupt line") }]);
    expect(await readFile(path, "utf8")).not.toContain("agent.error");
  });

  it("AG-9 a failed append rejects, leaves memory unchanged, and the next append truncates the partial tail", async () => {
    const path = join(dir, "events.jsonl");
    const storage = createJsonlStorage(path);
    const agent = createAgent({ model: scriptedModel([{ text: "ok" }]), storage });
    await agent.storage.append(createEntry("message", createUserMessage("first")));
    const good = await readFile(path, "utf8");
    // Make the next write fail (a directory where the file was), then put the file back with the partial
    // bytes a torn write would have left behind.
    await rename(path, `${path}.bak`);
    await mkdir(path);
    await expect(agent.storage.append(createEntry("message", createUserMessage("lost")))).rejects.toThrow();
    expect(inspectAgent(agent).historySize()).toBe(1);
    await rmdir(path);
    await rename(`${path}.bak`, path);
    await appendFile(path, '{"id":"partial","ty');
    await agent.storage.append(createEntry("message", createUserMessage("second")));
    const text = await readFile(path, "utf8");
    expect(text.startsWith(good)).toBe(true);
    expect(text).not.toContain("partial");
    expect(text.split("\n").filter(Boolean).map((l) => JSON.parse(l).data.content)).toEqual(["first", "second"]);
    expect(inspectAgent(agent).historySize()).toBe(2);
  });

  it("AG-12 clear deletes the file; memory storage reads return copies", async () => {
    const path = join(dir, "events.jsonl");
    const storage = createJsonlStorage(path);
    await storage.append(createEntry("message", createUserMessage("a")));
    await storage.clear();
    await expect(stat(path)).rejects.toThrow();
    expect(await storage.read()).toEqual([]);
    const initial = [createEntry("message", createUserMessage("m"))];
    const memory = createMemoryStorage(initial);
    const copy = await memory.read();
    copy.pop();
    expect(await memory.read()).toHaveLength(1);
    await memory.clear();
    expect(await memory.read()).toEqual([]);
    expect(initial).toHaveLength(1);
  });
});
