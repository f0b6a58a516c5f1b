import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ByteCache } from "./byte-cache.js";
import { createResourceCenter, type OwnedResourceCenter } from "./center.js";
import type { FilePayload, TextPayload } from "./payload.js";
import { ResourceError } from "./resource-error.js";
import { sniffMediaType } from "./sniff.js";

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");

let home: string;
let cache: ByteCache;
let center: OwnedResourceCenter;

async function rejection(promise: Promise<unknown>): Promise<ResourceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResourceError);
  return error as ResourceError;
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "ishiki-store-"));
  cache = new ByteCache(1024 * 1024);
  center = createResourceCenter({ runtimeId: "p:store", home, cache });
});

afterAll(async () => {
  center.dispose();
  await rm(home, { recursive: true, force: true });
});

describe("store and core schemes", () => {
  it("RS-28 registerAsset ids are the first 32 hex of sha256(src), idempotent, and fetch nothing", async () => {
    const src = `data:image/png;base64,${PNG.toString("base64")}`;
    const url = await center.store.registerAsset(src, { filename: "p.png", sourceInfo: { platform: "test", messageId: "m1" } });
    expect(url).toBe(`asset://${sha256(src).slice(0, 32)}`);
    expect(await center.store.registerAsset(src)).toBe(url);
    const files = await readdir(join(home, "resources", "assets"));
    expect(files).toEqual([`${url.slice(8)}.json`]);
  });

  it("RS-23 RS-27 asset meta never fetches and never shows src", async () => {
    const src = "data:text/plain,secret%20source";
    const url = await center.store.registerAsset(src, { sourceInfo: { platform: "test" } });
    const meta = (await center.resolve(`${url}?view=meta`)) as TextPayload;
    expect(meta.text).toContain("size: not fetched yet");
    expect(meta.text).toContain('source: {"platform":"test"}');
    expect(meta.text).toContain(`read({url: "${url}"})`);
    expect(meta.text).not.toContain("secret");
    expect(await readdir(join(home, "resources", "assets"))).not.toContain(url.slice(8));
  });

  it("RS-23 RS-28 RS-29 data: assets are fetched on first read, stored, and their sidecar completed", async () => {
    const src = `data:image/*;base64,${PNG.toString("base64")}`;
    const url = await center.store.registerAsset(src, { mediaType: "image/*" });
    const payload = (await center.resolve(url)) as FilePayload;
    expect(payload).toMatchObject({ type: "file", mediaType: "image/png", size: PNG.length, immutable: true });
    expect(Buffer.from(payload.bytes).equals(PNG)).toBe(true);
    const id = url.slice(8);
    expect(await readFile(join(home, "resources", "assets", id))).toEqual(PNG);
    const sidecar = JSON.parse(await readFile(join(home, "resources", "assets", `${id}.json`), "utf8"));
    expect(sidecar).toMatchObject({ id, kind: "asset", mediaType: "image/png", byteLength: PNG.length, contentHash: sha256(PNG), src });
    expect(typeof sidecar.fetchedAt).toBe("string");
    const meta = (await center.resolve(`${url}?view=meta`)) as TextPayload;
    expect(meta.text).toContain(`size: ${PNG.length} bytes`);
    const text = await center.store.registerAsset("data:text/plain,hello%20world");
    expect(await center.resolve(text)).toMatchObject({ type: "text", text: "hello world", mediaType: "text/plain" });
    const b64 = await center.store.registerAsset(`base64://${Buffer.from("GIF89a..").toString("base64")}`);
    expect(await center.resolve(b64)).toMatchObject({ type: "file", mediaType: "image/gif" });
  });

  it("RS-31 a declared concrete type wins over sniffing", async () => {
    const url = await center.store.registerAsset(`data:application/octet-stream;base64,${PNG.toString("base64")}`, { mediaType: "image/jpeg" });
    expect(await center.resolve(url)).toMatchObject({ type: "file", mediaType: "image/jpeg" });
  });

  it("RS-28 sources other than data:, base64:// and http(s), file: included, are resource_unavailable", async () => {
    for (const src of ["file:///etc/passwd", "ftp://example.com/x", "/etc/passwd", "javascript:alert(1)"]) {
      const url = await center.store.registerAsset(src);
      const error = await rejection(center.resolve(url));
      expect(error.code).toBe("resource_unavailable");
      expect(error.message).not.toContain(src);
    }
  });

  it("RS-23 asset URLs are asset://<32 hex> without a path; unknown ids are resource_not_found", async () => {
    expect((await rejection(center.resolve("asset://xyz"))).code).toBe("invalid_resource_uri");
    expect((await rejection(center.resolve(`asset://${"a".repeat(32)}/x`))).code).toBe("invalid_resource_uri");
    expect((await rejection(center.resolve(`asset://${"a".repeat(32)}`))).code).toBe("resource_not_found");
  });

  it("RS-24 RS-26 RS-30 artifacts are content-addressed, atomic, and read their readable view", async () => {
    const raw = new TextEncoder().encode('{"data":"aGVsbG8="}');
    const view = "data: hello";
    const url = await center.store.writeArtifact("mcp.server/tool", raw, { mediaType: "application/json", toolName: "mcp.server/tool", toolCallId: "c1" }, view);
    const name = `${sha256(raw)}-${sha256("application/json").slice(0, 8)}-${sha256(view).slice(0, 16)}`;
    expect(url).toBe(`artifact://mcpservertool/${name}`);
    expect(await center.store.writeArtifact("mcp.server/tool", raw, { mediaType: "application/json" }, view)).toBe(url);
    const files = (await readdir(join(home, "resources", "artifacts", "mcpservertool"))).sort();
    expect(files).toEqual([`${name}.blob`, `${name}.json`, `${name}.view`]);
    expect(await center.resolve(url)).toMatchObject({ type: "text", text: view, mediaType: "text/plain" });
    expect(await center.resolve(`${url}?view=original`)).toMatchObject({ type: "text", text: '{"data":"aGVsbG8="}', mediaType: "application/json" });
    const meta = (await center.resolve(`${url}?view=meta`)) as TextPayload;
    expect(meta.text).toContain('"toolCallId":"c1"');
    expect(meta.text).toContain("metadata only; no bytes were loaded");
    expect((await rejection(center.resolve(`${url}?view=thumbnail`))).code).toBe("unsupported_view");
    const plain = await center.store.writeArtifact("!!!", new TextEncoder().encode("x\ny\n"), { mediaType: "text/plain" });
    expect(plain.startsWith("artifact://tool/")).toBe(true);
    expect(await center.resolve(`${plain}:2`)).toMatchObject({ text: "y\n", source: { url: plain } });
    const png = await center.store.writeArtifact("shot", PNG, { mediaType: "image/png" });
    expect(await center.resolve(png)).toMatchObject({ type: "file", mediaType: "image/png", immutable: true });
    expect((await rejection(center.resolve("artifact://shot/missing"))).code).toBe("resource_not_found");
    expect((await rejection(center.resolve("artifact://shot/.hidden"))).code).toBe("invalid_resource_uri");
    const leftovers = (await readdir(join(home, "resources", "artifacts", "shot"))).filter((f) => f.endsWith(".tmp"));
    expect(leftovers).toEqual([]);
  });

  it("RS-26 the byte cache is bounded and a stopped runtime holds no cached bytes", async () => {
    const other = createResourceCenter({ runtimeId: "p:other", home, cache });
    const big = new Uint8Array(400 * 1024).fill(7);
    const urls = await Promise.all([1, 2, 3].map((n) => other.store.writeArtifact(`t${n}`, big, { mediaType: "application/octet-stream" })));
    for (const url of urls) await other.resolve(url);
    expect(cache.size).toBeLessThanOrEqual(cache.limit);
    const before = cache.size;
    expect(before).toBeGreaterThan(0);
    other.dispose();
    await center.resolve(urls[0]);
    const cachedByCenter = cache.size;
    expect(cachedByCenter).toBeGreaterThan(0);
    center.dispose();
    expect(cache.size).toBe(0);
  });

  it("RS-31 sniffing recognises the listed formats", () => {
    const cases: Array<[number[] | string, string]> = [
      [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "image/png"],
      [[0xff, 0xd8, 0xff, 0xdb], "image/jpeg"],
      ["GIF87a", "image/gif"],
      ["GIF89a", "image/gif"],
      ["RIFF\0\0\0\0WEBPVP8 ", "image/webp"],
      ["ID3\x03", "audio/mpeg"],
      [[0xff, 0xfb, 0x90, 0x00], "audio/mpeg"],
      ["OggS\0", "audio/ogg"],
      [[0x1a, 0x45, 0xdf, 0xa3], "video/webm"],
      ["\0\0\0\x18ftypmp42", "video/mp4"],
      ["RIFF\0\0\0\0WAVEfmt ", "audio/wav"],
      ["%PDF-1.7", "application/pdf"],
      ["#!SILK_V3", "audio/silk"],
      ["\x02#!SILK_V3", "audio/silk"],
      ["#!AMR\n", "audio/amr"],
    ];
    for (const [bytes, type] of cases) {
      const data = typeof bytes === "string" ? Buffer.from(bytes, "latin1") : Uint8Array.from(bytes);
      expect(sniffMediaType(data)).toBe(type);
    }
    expect(sniffMediaType(Buffer.from("plain text"))).toBeUndefined();
  });
});
