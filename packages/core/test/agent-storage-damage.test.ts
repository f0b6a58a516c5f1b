// Damaged events.jsonl files (issue 16, AG-7, AG-8): torn tails in bytes, invalid entries, byte-order marks, CRLF,
// blank lines and the streamed read. Every case checks what is read, what is reported and what the next append
// leaves in the file.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createAgent,
  createAssistantMessage,
  createCustomMessage,
  createEntry,
  createJsonlStorage,
  createSystemMessage,
  createUserMessage,
  type AgentEntry,
  type AgentEvent,
  type JsonlStorageOptions,
  type ModelMessage,
} from "../src/index.js";
import { recordEvents, recordingLogger, retraction, scriptedModel, tempDir } from "./agent-support.js";

let dir: string;
let dispose: () => Promise<void>;
beforeEach(async () => ({ dir, dispose } = await tempDir()));
afterEach(() => dispose());

const line = (entry: AgentEntry): string => `${JSON.stringify(entry)}\n`;
const user = (text: string, id?: string): AgentEntry => createEntry("message", createUserMessage(text, { id, timestamp: 1 }), { id, timestamp: 1 });

async function open(bytes: Buffer | string, options: JsonlStorageOptions = {}): Promise<{ path: string; reports: string[]; storage: ReturnType<typeof createJsonlStorage> }> {
  const path = join(dir, "events.jsonl");
  await writeFile(path, bytes);
  const storage = createJsonlStorage(path, options);
  const reports: string[] = [];
  storage.onReport?.((message) => reports.push(message));
  return { path, reports, storage };
}

describe("a torn tail is cut in bytes", () => {
  const kept = user("kept", "k");
  const next = user("next", "n");

  // 2, 3 and 4-byte characters (and a mix), torn after every byte of the line that holds them, so the tail ends
  // inside a character at every possible position.
  for (const text of ["é", "中文", "😀", "混合 é 😀 end"]) {
    it(`AG-7 a tail torn at any byte of ${JSON.stringify(text)} loses nothing before it`, async () => {
      const torn = Buffer.from(line(user(text, "t")));
      for (let cut = 1; cut < torn.length - 1; cut += 1) {
        const { path, reports, storage } = await open(Buffer.concat([Buffer.from(line(kept)), torn.subarray(0, cut)]));
        expect(await storage.read()).toEqual([kept]);
        expect(reports).toEqual([expect.stringContaining(":2: torn final line")]);
        await storage.append(next);
        expect(await readFile(path, "utf8")).toBe(line(kept) + line(next));
      }
    });
  }

  it("AG-7 a tail of invalid bytes is cut exactly, whatever they would decode to", async () => {
    for (const junk of [[0xff], [0xff, 0xfe, 0xfd], [0xc0], [0x80, 0x80, 0x80, 0x80], [0xe4, 0xb8], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80]]) {
      const { path, storage } = await open(Buffer.concat([Buffer.from(line(kept)), Buffer.from(junk)]));
      expect(await storage.read()).toEqual([kept]);
      await storage.append(next);
      expect(await readFile(path)).toEqual(Buffer.from(line(kept) + line(next)));
    }
  });

  it("AG-7 a first append cuts the torn tail too", async () => {
    const { path, storage } = await open(Buffer.concat([Buffer.from(line(kept)), Buffer.from(line(user("中", "t"))).subarray(0, 40)]));
    await storage.append(next);
    expect(await readFile(path, "utf8")).toBe(line(kept) + line(next));
  });

  it("AG-8 a damaged line is reported once per storage however often the stream is read", async () => {
    const { reports, storage } = await open(`${line(kept)}junk\n${line(next)}{"torn`);
    await storage.read();
    await storage.read();
    expect(reports).toEqual([expect.stringContaining(":2: corrupt line skipped"), expect.stringContaining(":4: torn final line")]);
  });

  it("AG-7 invalid bytes inside a middle line keep the entry, read as U+FFFD, and are reported", async () => {
    const middle = Buffer.from(line(user("ab", "m")));
    const at = middle.indexOf("ab");
    middle[at] = 0xff;
    const { reports, storage } = await open(Buffer.concat([Buffer.from(line(kept)), middle, Buffer.from(line(next))]));
    const entries = await storage.read();
    expect(entries.map((entry) => entry.id)).toEqual(["k", "m", "n"]);
    expect((entries[1].data as { content: string }).content).toBe("\uFFFDb");
    expect(reports).toEqual([expect.stringContaining(":2: invalid UTF-8")]);
  });
});

describe("line endings, blank lines and a byte-order mark", () => {
  const a = user("a", "a");
  const b = user("b", "b");

  it("AG-7 a UTF-8 byte-order mark at the start does not drop the first entry", async () => {
    const { path, reports, storage } = await open(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(line(a) + line(b))]));
    expect(await storage.read()).toEqual([a, b]);
    expect(reports).toEqual([]);
    const c = user("c", "c");
    await storage.append(c);
    expect((await storage.read()).map((entry) => entry.id)).toEqual(["a", "b", "c"]);
    expect((await readFile(path)).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it("AG-7 CRLF line endings read every entry; a torn tail after them is cut at its first byte", async () => {
    const crlf = `${JSON.stringify(a)}\r\n${JSON.stringify(b)}\r\n`;
    const { path, reports, storage } = await open(`${crlf}{"id":"x","type":"mes`);
    expect(await storage.read()).toEqual([a, b]);
    expect(reports).toEqual([expect.stringContaining(":3: torn final line")]);
    const c = user("c", "c");
    await storage.append(c);
    expect(await readFile(path, "utf8")).toBe(crlf + line(c));
  });

  it("AG-7 blank lines (empty, spaces, a lone CR) are skipped silently and never cut", async () => {
    const text = `\n${line(a)}\n  \n\r\n${line(b)}\n\n`;
    const { path, reports, storage } = await open(text);
    expect(await storage.read()).toEqual([a, b]);
    expect(reports).toEqual([]);
    const c = user("c", "c");
    await storage.append(c);
    expect(await readFile(path, "utf8")).toBe(text + line(c));
  });

  it("AG-7 an unparsable final line followed by blank lines is cut with them; a corrupt one before it stays", async () => {
    const { path, reports, storage } = await open(`${line(a)}junk one\n${line(b)}junk two\n\n\n`);
    expect(await storage.read()).toEqual([a, b]);
    expect(reports).toEqual([expect.stringContaining(":2: corrupt line skipped"), expect.stringContaining(":4: unparsable final line")]);
    const c = user("c", "c");
    await storage.append(c);
    expect(await readFile(path, "utf8")).toBe(`${line(a)}junk one\n${line(b)}${line(c)}`);
  });
});

describe("entries are checked against their type when read", () => {
  const a = user("a", "a");
  const b = user("b", "b");
  const raw = (fields: Record<string, unknown>): string => `${JSON.stringify({ id: "bad", type: "message", timestamp: 1, ...fields })}\n`;
  const cases: Array<[string, string]> = [
    ["data null", raw({ data: null })],
    ["data missing", raw({})],
    ["an unknown role", raw({ data: { id: "m", timestamp: 1, role: "boss", content: "x" } })],
    ["a numeric user content", raw({ data: { id: "m", timestamp: 1, role: "user", content: 5 } })],
    ["a user part of an assistant type", raw({ data: { id: "m", timestamp: 1, role: "user", content: [{ type: "tool-call", toolCallId: "c", toolName: "t", input: {} }] } })],
    ["a text part without text", raw({ data: { id: "m", timestamp: 1, role: "assistant", content: [{ type: "text", text: null }] } })],
    ["a tool call without a name", raw({ data: { id: "m", timestamp: 1, role: "assistant", content: [{ type: "tool-call", toolCallId: "c", input: {} }] } })],
    ["a tool message with string content", raw({ data: { id: "m", timestamp: 1, role: "tool", content: "r" } })],
    ["a tool result with an unknown output", raw({ data: { id: "m", timestamp: 1, role: "tool", content: [{ type: "tool-result", toolCallId: "c", toolName: "t", output: { type: "blob" } }] } })],
    ["a system message with parts", raw({ data: { id: "m", timestamp: 1, role: "system", content: [{ type: "text", text: "x" }] } })],
    ["a message without id", raw({ data: { timestamp: 1, role: "user", content: "x" } })],
    ["providerOptions that are not objects", raw({ data: { id: "m", timestamp: 1, role: "user", content: "x", providerOptions: { a: 1 } } })],
    ["a string timestamp", raw({ timestamp: "now", data: { id: "m", timestamp: 1, role: "user", content: "x" } })],
    ["a numeric turnId", raw({ turnId: 7, data: { id: "m", timestamp: 1, role: "user", content: "x" } })],
    ["an event of no lifecycle type", raw({ type: "event", data: { type: "tool.start", turnId: "t" } })],
    ["an event with data null", raw({ type: "event", data: null })],
    ["a state without version", raw({ type: "state", data: { mood: 1 } })],
    ["a custom message without type", raw({ data: { id: "m", timestamp: 1, role: "custom", data: {} } })],
  ];

  for (const [name, bad] of cases) {
    it(`AG-7 an entry with ${name} is skipped and reported with its line; the next turn still answers`, async () => {
      const { reports, storage } = await open(line(a) + bad + line(b));
      const model = scriptedModel([{ text: "ok" }]);
      const agent = createAgent({ model, storage });
      const events = recordEvents(agent);
      agent.send(createUserMessage("hi"));
      await agent.wait();
      expect(reports).toEqual([expect.stringMatching(/:2: invalid entry skipped; /)]);
      expect(events.some((event) => event.type === "turn.done")).toBe(true);
      expect(events).toContainEqual({ type: "agent.error", source: "storage", message: reports[0] });
      const prompt = model.prompts[0].prompt.filter((message) => message.role === "user");
      expect(prompt.map((message) => (message.content as Array<{ text: string }>)[0].text)).toEqual(["a", "b", "hi"]);
      // A parsable invalid final line is skipped but not cut: only unreadable tails are (AG-7).
      expect((await storage.read()).map((entry) => entry.id).slice(0, 2)).toEqual(["a", "b"]);
    });
  }

  it("AG-7 checks registered for custom messages and entries reject bad data; a throwing check counts as a failure", async () => {
    const good = createEntry("message", createCustomMessage("test.retraction", retraction("m1")), { id: "good" });
    const bad = createEntry("message", createCustomMessage("test.retraction", { messageId: 5 } as never), { id: "bad" });
    const note = createEntry("test.note" as never, { text: 1 } as never, { id: "note" });
    const odd = createEntry("test.odd" as never, {} as never, { id: "odd" });
    const free = createEntry("test.free" as never, null as never, { id: "free" });
    const { reports, storage } = await open([good, bad, note, odd, free].map(line).join(""), {
      checks: {
        messages: { "test.retraction": (data) => (typeof (data as { messageId?: unknown }).messageId === "string" ? undefined : "messageId is not a string") },
        entries: {
          "test.note": (data) => (typeof (data as { text?: unknown }).text === "string" ? undefined : "text is not a string"),
          "test.odd": () => {
            throw new Error("boom");
          },
        },
      },
    });
    expect((await storage.read()).map((entry) => entry.id)).toEqual(["good", "free"]);
    expect(reports).toEqual([
      expect.stringMatching(/:2: invalid entry skipped; test\.retraction message: messageId is not a string$/),
      expect.stringMatching(/:3: invalid entry skipped; test\.note: text is not a string$/),
      expect.stringMatching(/:4: invalid entry skipped; its check threw: boom$/),
    ]);
  });

  it("AG-7 a check map cannot be reached through inherited names", async () => {
    const entry = createEntry("constructor" as never, null as never, { id: "c" });
    const { storage } = await open(line(entry), { checks: { entries: {} } });
    expect(await storage.read()).toEqual([entry]);
  });

  it("AG-7 AG-54 a tool result whose assistant entry was skipped is left out of the request, with its emptied message", async () => {
    const call = { type: "tool-call", toolCallId: "c1", input: {} };
    const result = (id: string) => ({ type: "tool-result", toolCallId: id, toolName: "echo", output: { type: "text", value: "r" } });
    const tool = (id: string, content: unknown[]) => line({ id, type: "message", data: { id, timestamp: 1, role: "tool", content }, timestamp: 1 } as never);
    const kept = createEntry("message", createAssistantMessage([{ type: "tool-call", toolCallId: "c2", toolName: "echo", input: {} }]), { id: "kept" });
    const text =
      line(a) +
      raw({ data: { id: "m", timestamp: 1, role: "assistant", content: [call] } }) +
      tool("t1", [result("c1")]) +
      line(kept) +
      tool("t2", [result("c1"), result("c2")]) +
      line(b);
    const { reports, storage } = await open(text);
    let projected: ModelMessage[] = [];
    const agent = createAgent({ model: scriptedModel([{ text: "ok" }]), storage, plugins: [{ name: "spy", prepareStep: (step) => void (projected = step.messages) }] });
    agent.send(createUserMessage("hi"));
    await agent.wait();
    expect(reports).toEqual([expect.stringContaining(":2: invalid entry skipped")]);
    expect(projected.map((message) => message.role)).toEqual(["user", "assistant", "tool", "user", "user"]);
    expect(projected[2]).toEqual({ role: "tool", content: [result("c2")] });
  });

  it("AG-52 a stored system message is history, not a reason to fail every later turn", async () => {
    const { storage } = await open(line(createEntry("message", createSystemMessage("be brief"))) + line(a));
    const model = scriptedModel([{ text: "ok" }]);
    const agent = createAgent({ model, storage });
    const events = recordEvents(agent);
    agent.send(createUserMessage("hi"));
    await agent.wait();
    expect(events.filter((event): event is Extract<AgentEvent, { type: "turn.done" }> => event.type === "turn.done")).toHaveLength(1);
    expect(model.prompts[0].prompt.some((message) => message.role === "system" && message.content === "be brief")).toBe(true);
  });
});

describe("the file is read streamed", () => {
  const entries = Array.from({ length: 40 }, (_, index) => user(`entry ${index} 中文 😀`.repeat((index % 5) + 1), `e${index}`));
  const text = entries.map(line).join("");

  it("AG-7 every chunk size reads the same entries: 1, 3, random and whole", async () => {
    const sizes = [1, 3, 7 + Math.floor(Math.random() * 200), Buffer.byteLength(text) + 1];
    for (const readChunkBytes of sizes) {
      const { storage, reports } = await open(`${text}{"id":"torn","ty`, { readChunkBytes });
      expect(await storage.read()).toEqual(entries);
      expect(reports).toEqual([expect.stringContaining(":41: torn final line")]);
    }
  });

  it("AG-7 a line longer than the limit is skipped and reported without being held; the rest reads", async () => {
    const long = line(user("x".repeat(5000), "long"));
    const { path, reports, storage } = await open(line(entries[0]) + long + line(entries[1]), { readChunkBytes: 64, maxLineBytes: 1000 });
    expect(await storage.read()).toEqual([entries[0], entries[1]]);
    expect(reports).toEqual([expect.stringContaining(":2: corrupt line skipped; longer than 1000 bytes")]);
    await storage.append(entries[2]);
    expect(await readFile(path, "utf8")).toBe(line(entries[0]) + long + line(entries[1]) + line(entries[2]));
  });

  it("AG-7 an overlong torn tail is cut like any torn tail", async () => {
    const { path, storage } = await open(line(entries[0]) + "y".repeat(5000), { readChunkBytes: 64, maxLineBytes: 1000 });
    expect(await storage.read()).toEqual([entries[0]]);
    await storage.append(entries[1]);
    expect(await readFile(path, "utf8")).toBe(line(entries[0]) + line(entries[1]));
  });
});

describe("random damage (seeded, 200 files)", () => {
  // A small deterministic PRNG: a failure names its seed and reproduces.
  const random = (seed: number) => () => ((seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32);
  const junk = ["not json", "{", "[1]", "null", '{"id":1,"type":"message"}', "   ", "", "\r", "\u0000\u0001", '{"id":"x"}'];

  it("AG-7 a read never throws and returns exactly the valid entries; the next append starts on a line of its own", async () => {
    for (let seed = 1; seed <= 200; seed += 1) {
      const next = random(seed);
      const expected: AgentEntry[] = [];
      const parts: Buffer[] = [];
      const lines = Math.floor(next() * 12);
      for (let index = 0; index < lines; index += 1) {
        if (next() < 0.6) {
          const entry = user(`${seed}-${index} ${"中é😀".slice(0, Math.floor(next() * 4))}`, `e${seed}-${index}`);
          expected.push(entry);
          parts.push(Buffer.from(line(entry)));
        } else parts.push(Buffer.from(`${junk[Math.floor(next() * junk.length)]}${next() < 0.2 ? "\r" : ""}\n`));
      }
      // A valid last line with its newline is what makes the file's end certain; anything after it is a tail.
      if (next() < 0.5) {
        const torn = Buffer.from(line(user("torn 中文", "torn")));
        parts.push(next() < 0.5 ? torn.subarray(0, Math.floor(next() * (torn.length - 1)) + 1) : Buffer.from(Array.from({ length: 1 + Math.floor(next() * 5) }, () => Math.floor(next() * 256))));
      }
      const bytes = Buffer.concat(parts);
      const { path, storage } = await open(bytes, { readChunkBytes: 4 + Math.floor(next() * 64) });
      const read = await storage.read();
      expect(read.map((entry) => entry.id), `seed ${seed}`).toEqual(expected.map((entry) => entry.id));
      const added = user("added", "added");
      await storage.append(added);
      const after = await readFile(path);
      expect(after.subarray(after.length - Buffer.byteLength(line(added))).toString(), `seed ${seed}`).toBe(line(added));
      const before = after.subarray(0, after.length - Buffer.byteLength(line(added)));
      expect(before.length === 0 || before[before.length - 1] === 0x0a, `seed ${seed}`).toBe(true);
      expect(bytes.subarray(0, before.length).equals(before), `seed ${seed}: only a tail is ever cut`).toBe(true);
      expect((await createJsonlStorage(path).read()).map((entry) => entry.id), `seed ${seed}`).toEqual([...expected, added].map((entry) => entry.id));
    }
  });
});

describe("a stream that cannot be read", () => {
  it("AG-8 events.jsonl being a directory fails the read with an error naming the path", async () => {
    const path = join(dir, "events.jsonl");
    await mkdir(path);
    const storage = createJsonlStorage(path);
    await expect(storage.read()).rejects.toThrow(`cannot read ${path}: EISDIR`);
    await expect(storage.append(user("a"))).rejects.toThrow(path);
  });

  it("AG-21 a fact whose background write fails is named in the warning with the path", async () => {
    const path = join(dir, "events.jsonl");
    const logger = recordingLogger();
    const agent = createAgent({ model: scriptedModel([{ text: "ok" }]), storage: createJsonlStorage(path), logger });
    await agent.init();
    await mkdir(path);
    const fact = createCustomMessage("test.retraction", retraction("m1"), { id: "fact-1" });
    agent.send(fact, { trigger: false });
    await agent.wait();
    const warning = logger.lines.find(([level, text]) => level === "warn" && text.startsWith("background write of test.retraction message fact-1 failed: "));
    expect(warning?.[1]).toContain(path);
  });
});
