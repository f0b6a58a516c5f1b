import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createResourceCenter, pageOriginOf, pageText, ResourceError, type OwnedResourceCenter } from "../resources/index.js";
import { createReadTool } from "./read.js";
import { readResultSchema, type ReadResult } from "./read-schema.js";

let home: string;
let center: OwnedResourceCenter;
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const numbered = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${from + i}: ${"x".repeat(40)}\n`).join("");

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "ishiki-read-"));
  await writeFile(join(home, "long.txt"), numbered(1, 5000));
  await writeFile(join(home, "pic.png"), PNG);
  center = createResourceCenter({ runtimeId: "p:read", home });
});

afterAll(async () => {
  center.dispose();
  await rm(home, { recursive: true, force: true });
});

type Execution = { toolCallId: string; messages: []; context: {}; caller?: string };

async function run(readTool: ReturnType<typeof createReadTool>, input: { url: string; lifetime?: "once" | "recent" | "retain" }, extra: Partial<Execution> = {}) {
  const execution: Execution = { toolCallId: "call-1", messages: [], context: {}, ...extra };
  return (await readTool.execute!(input, execution)) as ReadResult;
}

/** What the exit shows for a raw read text result. */
function display(result: ReadResult): string {
  if (result.type !== "text") throw new Error("expected text");
  return pageText(result.text, pageOriginOf(result.text, result.source, result.url)).display;
}

describe("read tool", () => {
  it("RS-32 lifetime is accepted only by direct calls with image input; the sandbox schema is { url } alone", () => {
    const schemaOf = (t: ReturnType<typeof createReadTool>) => t.inputSchema as unknown as z.ZodType;
    const vision = schemaOf(createReadTool(center, { imageInput: true }));
    const text = schemaOf(createReadTool(center));
    const sandbox = schemaOf(createReadTool(center, { sandbox: true, imageInput: true }));
    expect(vision.safeParse({ url: "local://a", lifetime: "retain" }).success).toBe(true);
    expect(text.safeParse({ url: "local://a", lifetime: "retain" }).success).toBe(false);
    expect(sandbox.safeParse({ url: "local://a", lifetime: "once" }).success).toBe(false);
    expect(sandbox.safeParse({ url: "local://a", extra: 1 }).success).toBe(false);
    expect(z.toJSONSchema(sandbox, { io: "input" })).toMatchObject({ properties: { url: { type: "string" } }, required: ["url"], additionalProperties: false });
    expect(Object.keys((z.toJSONSchema(sandbox, { io: "input" }) as { properties: object }).properties)).toEqual(["url"]);
  });

  it("RS-33 programs get the complete selected text; the result is JSON-safe and matches the output schema", async () => {
    const sandbox = createReadTool(center, { sandbox: true });
    const whole = await run(sandbox, { url: "local://long.txt" });
    expect(whole).toMatchObject({ type: "text", url: "local://long.txt", text: numbered(1, 5000), mediaType: "text/plain", filename: "long.txt" });
    expect(JSON.parse(JSON.stringify(whole))).toEqual(whole);
    expect(readResultSchema.parse(whole)).toEqual(whole);
    const marked = await run(createReadTool(center), { url: "local://long.txt" }, { caller: "codemode" });
    expect(marked.type === "text" && marked.text).toBe(numbered(1, 5000));
  });

  it("RS-33 media come back as base64 with type, size and immutability", async () => {
    const result = await run(createReadTool(center, { sandbox: true }), { url: "local://pic.png" });
    expect(result).toEqual({ type: "file", url: "local://pic.png", data: PNG.toString("base64"), mediaType: "image/png", size: PNG.length, filename: "pic.png", immutable: false });
    expect(readResultSchema.parse(result)).toEqual(result);
  });

  it("RS-34 RS-37 direct reads fetch only the first page and the exit's display continues on the source URL", async () => {
    const result = await run(createReadTool(center), { url: "local://long.txt" });
    if (result.type !== "text") throw new Error("expected text");
    expect(result.text.length).toBeLessThanOrEqual(30_001);
    expect(result.source?.selectedEnd).toBe(numbered(1, 5000).length);
    const shown = display(result);
    const total = numbered(1, 5000).length;
    const trailer = (k: number) => {
      const y = numbered(1, k).length;
      return `[truncated: lines 1-${k} of 5000; characters 0-${y} of ${total}]\nFull result: local://long.txt\nContinue: read({url: "local://long.txt#offset=${y}"})`;
    };
    let k = 1;
    while (numbered(1, k + 1).length + trailer(k + 1).length <= 30_000) k++;
    expect(shown).toBe(numbered(1, k) + trailer(k));
    expect(shown.length).toBeLessThanOrEqual(30_000);
  });

  it("RS-37 RS-39 RS-40 continuing a ranged read re-reads the source, keeps &end=, never archives", async () => {
    const direct = createReadTool(center);
    let url = "local://long.txt:10-3000";
    let rebuilt = "";
    const urls: string[] = [];
    for (;;) {
      const result = await run(direct, { url });
      if (result.type !== "text") throw new Error("expected text");
      const page = pageText(result.text, pageOriginOf(result.text, result.source, result.url));
      rebuilt += page.body;
      const next = /Continue: read\(\{url: "([^"]+)"\}\)$/.exec(page.display)?.[1];
      if (!next) break;
      urls.push(next);
      url = next;
    }
    expect(rebuilt).toBe(numbered(10, 3000));
    expect(urls[0]).toMatch(/^local:\/\/long\.txt#offset=\d+&end=3000$/);
    expect(urls.length).toBeGreaterThan(3);
    expect(await readdir(home)).not.toContain("resources");
    // the current resource is re-read: a change between pages shows in the continuation
    await writeFile(join(home, "long.txt"), numbered(1, 5000).replace("700: ", "700! "));
    const changed = await run(direct, { url: urls[0] });
    expect(changed.type === "text" && changed.text).toContain("700! ");
    await writeFile(join(home, "long.txt"), numbered(1, 5000));
  });

  it("RS-38 RS-39 direct first pages of astral text and long lines continue to exactly the file", async () => {
    const content = `${"😀".repeat(20_001)}\n${"中".repeat(50_000)}\n${"a😀b\n".repeat(3000)}${"𝔸".repeat(15_000)}`;
    await writeFile(join(home, "astral.txt"), content);
    const direct = createReadTool(center);
    let url = "local://astral.txt";
    let rebuilt = "";
    for (let pages = 0; pages < 100; pages++) {
      const result = await run(direct, { url });
      if (result.type !== "text") throw new Error("expected text");
      const page = pageText(result.text, pageOriginOf(result.text, result.source, result.url));
      expect(page.display.length).toBeLessThanOrEqual(30_000);
      rebuilt += page.body;
      const next = /Continue: read\(\{url: "([^"]+)"\}\)$/.exec(page.display)?.[1];
      if (!next) break;
      url = next;
    }
    expect(rebuilt).toBe(content);
  });

  it("RS-35 failures are ResourceErrors with a stable code", async () => {
    const failure = await run(createReadTool(center), { url: "local://missing.txt" }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ResourceError);
    const error = failure as ResourceError;
    expect(`${error.name} [${error.code}]: ${error.message}`).toBe("ResourceError [resource_not_found]: local://missing.txt: no such file or directory");
  });
});
