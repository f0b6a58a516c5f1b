import { Buffer } from "node:buffer";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { jsonSchema, tool, type Tool } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolError } from "@yesimagent/core";
import { wrapToolSet, type ExitContext, type ToolAttachmentRecord } from "../src/exit/index.js";
import { createResourceCenter, type OwnedResourceCenter } from "../src/resources/index.js";
import { createReadTool } from "../src/tools/read.js";
import { tempDir } from "../../core/test/agent-support.js";
import { base64, png } from "./exit-support.js";

const anyInput = jsonSchema<Record<string, unknown>>({ type: "object" });
let resources: OwnedResourceCenter;
let records: ToolAttachmentRecord[];
let dispose: () => Promise<void>;
let home: string;

beforeEach(async () => {
  const temp = await tempDir();
  home = temp.dir;
  dispose = temp.dispose;
  resources = createResourceCenter({ runtimeId: "t/main", home });
  records = [];
});
afterEach(async () => {
  resources.dispose();
  await dispose();
});

function context(overrides: Partial<ExitContext> = {}): ExitContext {
  return { runtimeId: "t/main", resources, imageInput: true, appendAttachment: (record) => records.push(record), ...overrides };
}

async function display(output: unknown, options: { name?: string; tool?: Partial<Tool>; input?: unknown; context?: Partial<ExitContext>; id?: string } = {}) {
  const name = options.name ?? "probe";
  const base = tool({ inputSchema: anyInput, execute: async () => output, ...(options.tool as object) }) as Tool;
  const wrapped = wrapToolSet({ [name]: base }, context(options.context))[name];
  return wrapped.toModelOutput!({ toolCallId: options.id ?? "call-1", input: options.input ?? {}, output });
}

describe("display conversion and shaping", () => {
  it("EX-2 EX-7 strings become text and short JSON keeps its native shape", async () => {
    expect(await display("hello")).toEqual({ type: "text", value: "hello" });
    expect(await display({ ok: true, ids: ["1"] }, { name: "send_message" })).toEqual({ type: "json", value: { ok: true, ids: ["1"] } });
    expect(records).toEqual([]);
  });

  it("EX-7 JSON is normalised: Date, undefined, BigInt, non-finite, top-level undefined", async () => {
    const when = new Date("2026-01-02T03:04:05.000Z");
    expect(await display({ when, gone: undefined, big: 12n, nan: Number.NaN, inf: Infinity, list: [undefined, 1] })).toEqual({
      type: "json",
      value: { when: "2026-01-02T03:04:05.000Z", big: "12", nan: null, inf: null, list: [null, 1] },
    });
    expect(await display(undefined)).toEqual({ type: "json", value: null });
  });

  it("EX-7 a cycle is an error result naming its path", async () => {
    const value: Record<string, unknown> = { a: { b: [1] } };
    (value.a as { b: unknown[] }).b.push(value);
    expect(await display(value)).toEqual({ type: "error-text", value: "result is not JSON-serialisable: cycle at $.a.b[1]" });
  });

  it("issue 16: a result nested too deeply to display is an error result, in every display path", async () => {
    const deep = (depth: number, leaf: unknown, wrap: (inner: unknown) => unknown) => {
      let value = leaf;
      for (let i = 0; i < depth; i++) value = wrap(value);
      return value;
    };
    const error = { type: "error-text", value: "result cannot be displayed: it nests too deeply" };
    for (const depth of [6000, 20_000, 100_000]) {
      expect(await display(deep(depth, "\u0001", (inner) => [inner]))).toEqual(error);
      expect(await display(deep(depth, 1, (inner) => ({ k: inner })))).toEqual(error);
      // BigInt sends the value down the hand-written normaliser.
      expect(await display(deep(depth, 1n, (inner) => [inner]))).toEqual(error);
      // A program's return is walked for its attachments first.
      expect(await display(deep(depth, 1, (inner) => ({ attachments: [], k: inner })), { name: "codemode" })).toEqual(error);
    }
    // Within the serialisers' reach a deep value still displays.
    expect((await display(deep(1000, 1, (inner) => [inner]))).type).not.toBe("error-text");
  });

  it("EX-2 the tool's toModelOutput decides the display first", async () => {
    const out = await display({ stdout: "hi" }, { tool: { toModelOutput: ({ output }: { output: { stdout: string } }) => ({ type: "text", value: `out: ${output.stdout}` }) } as Partial<Tool> });
    expect(out).toEqual({ type: "text", value: "out: hi" });
  });

  it("EX-7 an array of MCP blocks becomes one joined text with media markers", async () => {
    const out = await display([
      { type: "text", text: "first" },
      { type: "image", data: base64(png(3, 4)), mimeType: "image/png" },
      { type: "resource", resource: { uri: "mcp://x/readme", text: "embedded text" } },
    ]);
    expect(out.type).toBe("text");
    expect((out as { value: string }).value).toMatch(/^first\n\[attachment: artifact:\/\/probe\/\S+; image\/png; 64 bytes\]\nembedded text$/);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ source: "tool", toolName: "probe", toolCallId: "call-1", items: [{ mediaType: "image/png", size: 64, width: 3, height: 4, lifetime: "once", immutable: true }] });
  });

  it("EX-3 plain data fields, base64-looking strings and untyped JSON are never taken for media; inputs are not mutated", async () => {
    const value = { data: base64(png(2, 2)), blob: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB", nested: { data: base64(png(2, 2)), mediaType: "image/png" } };
    const copy = structuredClone(value);
    const out = await display(value);
    expect(out).toEqual({ type: "json", value: copy });
    expect(value).toEqual(copy);
    expect(records).toEqual([]);
  });

  it("EX-3 a typed entry without data (a listing of files) stays plain JSON", async () => {
    const listing = [{ type: "file", url: "local://notes.txt", mediaType: "text/plain", size: 3 }];
    expect(await display(listing)).toEqual({ type: "json", value: listing });
    expect(records).toEqual([]);
  });

  it("EX-3 EX-5 typed nodes anywhere in JSON become markers; the input object is left as it was", async () => {
    const node = { type: "image", mediaType: "image/png", data: `data:image/png;base64,${base64(png(5, 6))}` };
    const value = { caption: "cat", pictures: [node] };
    const out = await display(value);
    expect(out).toMatchObject({ type: "json", value: { caption: "cat", pictures: [expect.stringMatching(/^\[attachment: artifact:\/\/probe\/\S+; image\/png; 64 bytes\]$/)] } });
    expect(value.pictures[0]).toBe(node);
    expect(records[0].items[0]).toMatchObject({ width: 5, height: 6 });
  });

  it("EX-4 foreign URLs stay a note, provider references a note, and nothing is recorded", async () => {
    const out = await display({
      type: "content",
      value: [],
    }, { tool: { toModelOutput: () => ({ type: "content", value: [{ type: "text", text: "see" }, { type: "file", mediaType: "image/png", data: { type: "url", url: new URL("https://example.com/a.png") } }, { type: "file", mediaType: "image/png", data: { type: "reference", reference: { openai: "file-1" } } }] }) } as Partial<Tool> });
    expect(out).toEqual({
      type: "content",
      value: [
        { type: "text", text: "see" },
        { type: "text", text: "[unloaded image/png: https://example.com/a.png]" },
        { type: "text", text: "[unloaded image/png: provider reference]" },
      ],
    });
    expect(records).toEqual([]);
  });

  it("EX-5 EX-6 an asset whose hash and type match is reused; a local:// file is always snapshotted", async () => {
    const image = png(7, 7, 1);
    const asset = await resources.store.registerAsset(`data:image/png;base64,${base64(image)}`, { mediaType: "image/*" });
    const read = createReadTool(resources, { imageInput: true });
    const fromAsset = await read.execute!({ url: asset }, { toolCallId: "r1", messages: [], context: {} } as never);
    const out = await display(fromAsset, { name: "read", tool: read as Partial<Tool>, input: { url: asset, lifetime: "retain" } });
    expect(out).toEqual({ type: "text", value: `[attachment: ${asset}; image/png; 64 bytes]` });
    expect(records[0].items[0]).toMatchObject({ url: asset, lifetime: "retain", immutable: true });

    await writeFile(join(home, "pic.png"), image);
    const fromLocal = await read.execute!({ url: "local://pic.png" }, { toolCallId: "r2", messages: [], context: {} } as never);
    const local = await display(fromLocal, { name: "read", tool: read as Partial<Tool>, id: "r2" });
    expect((local as { value: string }).value).toMatch(/^\[attachment: artifact:\/\/read\/\S+; image\/png; 64 bytes\]$/);
    expect(records[1].items[0]).toMatchObject({ lifetime: "once", immutable: true });
  });

  it("EX-22 a direct read's lifetime counts only with image input on", async () => {
    await display({ type: "image", data: base64(png(1, 1)), mimeType: "image/png" }, { name: "read", input: { lifetime: "retain" }, context: { imageInput: false } });
    expect(records[0].items[0].lifetime).toBe("once");
  });

  it("EX-8 long text is archived once and paged from the artifact", async () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join("\n");
    const out = (await display(text)) as { type: string; value: string };
    expect(out.type).toBe("text");
    expect(out.value).toContain("[truncated: lines 1-1997 of 5000; characters 0-");
    const url = /Full result: (\S+)/.exec(out.value)![1];
    expect(url).toMatch(/^artifact:\/\/probe\//);
    const stored = await resources.resolve(url);
    expect((stored as { text: string }).text).toBe(text);

    // EX-10: reading that artifact page by page pages on the artifact itself; no artifact of an artifact page.
    const read = createReadTool(resources);
    const next = /Continue: read\(\{url: "([^"]+)"\}\)/.exec(out.value)![1];
    const raw = await read.execute!({ url: next }, { toolCallId: "r", messages: [], context: {} } as never);
    const page = (await display(raw, { name: "read", tool: read as Partial<Tool>, id: "r" })) as { value: string };
    expect(page.value.startsWith(text.slice(Number(/#offset=(\d+)/.exec(next)![1]), Number(/#offset=(\d+)/.exec(next)![1]) + 100))).toBe(true);
    expect(await resources.store.list("artifact")).toEqual(["probe"]);
    expect(await resources.store.list("artifact", "probe")).toHaveLength(1);
  });

  it("EX-8 overflowing content is archived with a readable view and paged", async () => {
    const long = "y".repeat(40_000);
    const out = (await display(null, { tool: { toModelOutput: () => ({ type: "content", value: [{ type: "text", text: long }] }) } as Partial<Tool> })) as { value: string };
    const url = /Full result: (\S+)/.exec(out.value)![1];
    expect(((await resources.resolve(url)) as { text: string }).text).toBe(long);
    const original = (await resources.resolve(`${url}?view=original`)) as { text: string };
    expect(JSON.parse(original.text)).toEqual([{ type: "text", text: long }]);
  });

  it("EX-10 RS-40 a FileScheme read pages on its own source and creates no artifact", async () => {
    await mkdir(home, { recursive: true });
    const text = Array.from({ length: 3000 }, (_, i) => `row ${i}`).join("\n");
    await writeFile(join(home, "notes.txt"), text);
    const read = createReadTool(resources);
    const raw = await read.execute!({ url: "local://notes.txt" }, { toolCallId: "r", messages: [], context: {} } as never);
    const out = (await display(raw, { name: "read", tool: read as Partial<Tool> })) as { value: string };
    expect(out.value).toContain("Full result: local://notes.txt\nContinue: read({url: \"local://notes.txt#offset=");
    expect(await resources.store.list("artifact")).toEqual([]);
  });

  it("EX-9 error outputs pass through, cut at 30,000 units, and carry no attachments", async () => {
    const long = "e".repeat(40_000);
    const out = (await display(null, { tool: { toModelOutput: () => ({ type: "error-text", value: long }) } as Partial<Tool> })) as { value: string };
    expect(out.value.length).toBeLessThanOrEqual(30_000);
    expect(out.value).toMatch(/\n\[error text truncated: \d+ more characters\]$/);
    const omitted = Number(/(\d+) more/.exec(out.value)![1]);
    expect(out.value.indexOf("\n[error")).toBe(40_000 - omitted);

    const thrown = tool({ inputSchema: anyInput, execute: async (): Promise<string> => { throw new ToolError(`😀${"x".repeat(40_000)}`); } }) as Tool;
    const wrapped = wrapToolSet({ t: thrown }, context()).t;
    const error = await (wrapped.execute!({}, { toolCallId: "e", messages: [] } as never) as Promise<unknown>).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as Error).message.length).toBeLessThanOrEqual(30_000);
    expect((error as Error).message).toMatch(/\[error text truncated: \d+ more characters\]$/);
    const short = new RangeError("short");
    const plain = wrapToolSet({ t: tool({ inputSchema: anyInput, execute: async (): Promise<string> => { throw short; } }) as Tool }, context()).t;
    await expect(plain.execute!({}, { toolCallId: "e2", messages: [] } as never)).rejects.toBe(short);
    expect(records).toEqual([]);
  });

  it("EX-9 RS-36 an error text over 2,000 lines is cut to 2,000 lines with the note, as displayed and as thrown", async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `at frame ${i}`).join("\n");
    const out = (await display(null, { tool: { toModelOutput: () => ({ type: "error-text", value: lines }) } as Partial<Tool> })) as { value: string };
    const shown = out.value.split("\n");
    expect(shown).toHaveLength(2000);
    expect(shown.slice(0, 1999)).toEqual(lines.split("\n").slice(0, 1999));
    expect(shown[1999]).toBe(`[error text truncated: ${lines.length - shown.slice(0, 1999).join("\n").length} more characters]`);

    const thrown = tool({ inputSchema: anyInput, execute: async (): Promise<string> => { throw new ToolError(lines); } }) as Tool;
    const wrapped = wrapToolSet({ t: thrown }, context()).t;
    const error = await (wrapped.execute!({}, { toolCallId: "e", messages: [] } as never) as Promise<unknown>).catch((e: unknown) => e);
    expect((error as Error).message).toBe(out.value);

    const fits = Array.from({ length: 2000 }, () => "x").join("\n");
    const whole = (await display(null, { tool: { toModelOutput: () => ({ type: "error-text", value: fits }) } as Partial<Tool> })) as { value: string };
    expect(whole.value).toBe(fits);
  });

  it("EX-1 wrapping an already wrapped tool set does not stack the exit", async () => {
    let conversions = 0;
    const base = tool({ inputSchema: anyInput, execute: async () => "x", toModelOutput: ({ output }) => (conversions++, { type: "text", value: `[${output}]` }) }) as Tool;
    const once = wrapToolSet({ t: base }, context());
    const twice = wrapToolSet(once, context());
    expect(await twice.t.toModelOutput!({ toolCallId: "s", input: {}, output: "x" })).toEqual({ type: "text", value: "[x]" });
    expect(conversions).toBe(1);
  });
});

describe("once per call", () => {
  it("EX-19 the same call asked for twice is archived and recorded once", async () => {
    const ctx = context();
    const wrapped = wrapToolSet({ snap: tool({ inputSchema: anyInput, execute: async () => null }) as Tool }, ctx).snap;
    const output = { type: "image", data: base64(png(2, 2)), mimeType: "image/png" };
    const first = await wrapped.toModelOutput!({ toolCallId: "dup", input: {}, output });
    const second = await wrapped.toModelOutput!({ toolCallId: "dup", input: {}, output });
    expect(second).toEqual(first);
    expect(records).toHaveLength(1);
  });
});

describe("codemode final-return attachments", () => {
  it("EX-12 EX-13 EX-14 EX-15 only the top-level attachments array declares media; invalid items become errors", async () => {
    const image = { type: "image", data: base64(png(9, 9)), mimeType: "image/png", lifetime: "recent" };
    const out = await display(
      { count: 2, nested: { type: "image", data: base64(png(1, 1)), mimeType: "image/png" }, attachments: [image, 42, { type: "image", data: "", mimeType: "image/png", lifetime: "forever" }, "https://example.com/x.png"] },
      { name: "codemode", id: "prog" },
    );
    expect(out).toMatchObject({
      type: "json",
      value: {
        count: 2,
        nested: { type: "image", mimeType: "image/png" },
        attachments: [
          expect.stringMatching(/^\[attachment: artifact:\/\/codemode\/\S+; image\/png; 64 bytes\]$/),
          "[attachment error: expected an object or a resource URL string]",
          "[attachment error: lifetime must be once, recent or retain]",
          "[unloaded media: https://example.com/x.png]",
        ],
      },
    });
    expect(records).toEqual([{ source: "tool", toolName: "codemode", toolCallId: "prog", items: [expect.objectContaining({ lifetime: "recent", width: 9 })] }]);
  });

  it("EX-13 a resource URL reference is resolved: immutable content keeps its URL", async () => {
    const asset = await resources.store.registerAsset(`data:image/png;base64,${base64(png(2, 3))}`, { mediaType: "image/*" });
    const out = await display({ attachments: [{ url: asset }, { type: "resource_link", uri: "local://missing.png" }] }, { name: "codemode" });
    expect(out).toMatchObject({ value: { attachments: [`[attachment: ${asset}; image/png; 64 bytes]`, expect.stringMatching(/^\[attachment error: ResourceError \[resource_not_found\]/)] } });
    expect(records[0].items).toEqual([expect.objectContaining({ url: asset, mediaType: "image/png", size: 64, width: 2, height: 3, lifetime: "once", immutable: true })]);
    expect(records[0].items).toHaveLength(1);
  });

  it("EX-5 archiving failure fails the result and invents no URL", async () => {
    const broken = { ...resources, store: { ...resources.store, writeArtifact: async () => { throw new Error("disk full"); } } } as OwnedResourceCenter;
    const out = await display({ type: "image", data: Buffer.from(png(1, 1)).toString("base64"), mimeType: "image/png" }, { context: { resources: broken } });
    expect(out).toEqual({ type: "error-text", value: "probe: could not archive image/png media of call call-1: Error: disk full" });
    expect(records).toEqual([]);
  });
});
