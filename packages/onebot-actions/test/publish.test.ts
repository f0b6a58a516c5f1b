import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, failure, GROUP, invokeOneBot, SELF, startKernel, until, type Kernel } from "./support.js";

const bare = { model: "mock:m", channels: { [`onebot:${SELF}`]: [GROUP] } };
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0d8a3d10000000049454e44ae426082", "hex");

interface Fetched {
  url: string;
  status: number;
  type: string | null;
  cache: string | null;
  bytes: Buffer;
}

describe("onebot-actions: files and temporary URLs (OB-18 .. OB-20)", () => {
  let kernel: Kernel;
  const fetched: Fetched[] = [];
  beforeAll(async () => {
    kernel = await startKernel({ bare });
    // The peer downloads the images on Koishi's server it is asked to send, as a OneBot implementation does.
    kernel.peer.handlers.set("send_group_msg", async (params) => {
      const segments = typeof params.message === "string" ? [...params.message.matchAll(/file=([^,\]]+)/g)].map((match) => ({ type: "image", data: { file: match[1].replace(/&amp;/g, "&") } })) : params.message;
      for (const segment of segments) {
        if (segment.type !== "image" || !String(segment.data.file).startsWith(`http://127.0.0.1:${kernel.port}/`)) continue;
        const response = await fetch(segment.data.file);
        fetched.push({ url: segment.data.file, status: response.status, type: response.headers.get("content-type"), cache: response.headers.get("cache-control"), bytes: Buffer.from(await response.arrayBuffer()) });
      }
      return { message_id: 4242 };
    });
  }, 30_000);
  afterAll(async () => kernel?.dispose());

  const sentFiles = (action: string) => kernel.peer.calls.filter((item) => item.action === action).map((item) => JSON.stringify(item.params));

  it("OB-18 OB-19 OB-20 a resource file is published, fetched by the peer, served to HEAD, never listed, then expired", async () => {
    const { tools, runtime } = await invokeOneBot(kernel, { publish: { enabled: true, ttlSeconds: 1, path: "/ishiki/files", inlineMaxBytes: 4 * 1024 * 1024 } });
    await writeFile(join(runtime.home, "cat.png"), PNG);
    await call(tools, "onebot_call", { action: "send_group_msg", params: { group_id: GROUP, message: [{ type: "text", data: { text: "a cat" } }, { type: "image", data: { file: "local://cat.png" } }] } });
    expect(fetched).toHaveLength(1);
    const [file] = fetched;
    expect(file.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${kernel.port}/ishiki/files/[A-Za-z0-9_-]{43}/cat\\.png$`));
    expect(file).toMatchObject({ status: 200, type: "image/png", cache: "no-store" });
    expect(file.bytes.equals(PNG)).toBe(true);
    const head = await fetch(file.url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("image/png");
    expect((await fetch(`http://127.0.0.1:${kernel.port}/ishiki/files/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${kernel.port}/ishiki/files/${"A".repeat(43)}/cat.png`)).status).toBe(404);
    // Bytes were snapshotted at publish time: changing the file changes nothing.
    await writeFile(join(runtime.home, "cat.png"), "changed");
    expect(Buffer.from(await (await fetch(file.url)).arrayBuffer()).equals(PNG)).toBe(true);
    await until(async () => (await fetch(file.url)).status === 404, 5000, "expiry");
  });

  it("OB-20 OB-18 URLs are revoked when the runtime stops; CQ strings and baseUrl are honoured", async () => {
    const { tools, runtime, instance } = await invokeOneBot(kernel, { publish: { enabled: true, ttlSeconds: 300, path: "/tmpfiles", inlineMaxBytes: 1024, baseUrl: `http://127.0.0.1:${kernel.port}/` } });
    await writeFile(join(runtime.home, "dog.png"), PNG);
    const before = fetched.length;
    await call(tools, "onebot_call", { action: "send_group_msg", params: { group_id: GROUP, message: "look [CQ:image,file=local://dog.png]" } });
    expect(fetched.length).toBe(before + 1);
    const url = fetched.at(-1)!.url;
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${kernel.port}/tmpfiles/[A-Za-z0-9_-]{43}/dog\\.png$`));
    expect(sentFiles("send_group_msg").at(-1)).toContain("look [CQ:image,file=http://127.0.0.1");
    expect((await fetch(url)).status).toBe(200);
    await instance!.stop!();
    expect((await fetch(url)).status).toBe(404);
  });

  it("OB-18 without publishing files are inlined as base64 up to inlineMaxBytes; file: is refused; http passes", async () => {
    const { tools, runtime } = await invokeOneBot(kernel, { publish: { enabled: false, ttlSeconds: 300, path: "/ishiki/files", inlineMaxBytes: 1024 } });
    await writeFile(join(runtime.home, "cat.png"), PNG);
    await writeFile(join(runtime.home, "big.bin"), Buffer.alloc(4096, 7));
    await call(tools, "onebot_call", { action: "upload_group_file", params: { group_id: GROUP, file: "local://cat.png", name: "cat.png" } });
    const upload = kernel.peer.calls.filter((item) => item.action === "upload_group_file").at(-1)!;
    expect(upload.params.file).toBe(`base64://${PNG.toString("base64")}`);
    await call(tools, "onebot_call", { action: "send_group_msg", params: { group_id: GROUP, message: [{ type: "image", data: { file: "http://127.0.0.1:9/a.png" } }, { type: "record", data: { file: "local://cat.png" } }] } });
    const sent = kernel.peer.calls.filter((item) => item.action === "send_group_msg").at(-1)!;
    expect(sent.params.message).toEqual([{ type: "image", data: { file: "http://127.0.0.1:9/a.png" } }, { type: "record", data: { file: `base64://${PNG.toString("base64")}` } }]);
    const calls = kernel.peer.calls.length;
    expect((await failure(tools, "onebot_call", { action: "upload_group_file", params: { group_id: GROUP, file: "local://big.bin", name: "big.bin" } })).message).toBe(
      "local://big.bin: file too large to inline and publishing is unavailable",
    );
    expect((await failure(tools, "onebot_call", { action: "upload_group_file", params: { group_id: GROUP, file: "file:///etc/passwd", name: "passwd" } })).message).toMatch(/^file:\/\/\/etc\/passwd: file: URLs are refused/);
    expect(kernel.peer.calls.length).toBe(calls);
  });
});
