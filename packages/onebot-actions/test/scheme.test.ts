import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GROUP, invokeOneBot, SELF, startKernel, type Kernel } from "./support.js";

const bare = { model: "mock:m", channels: { [`onebot:${SELF}`]: [GROUP] } };
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0d8a3d10000000049454e44ae426082", "hex");
const MEMBERS = Array.from({ length: 120 }, (_, index) => ({ group_id: Number(GROUP), user_id: 10_000 + index, nickname: `member ${index + 1}`, role: "member" }));

async function codeOf(run: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await run();
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
  throw new Error("did not fail");
}

describe("onebot-actions: onebot:// (OB-21, OB-22)", () => {
  let kernel: Kernel;
  let media: Server;
  let mediaUrl = "";
  beforeAll(async () => {
    kernel = await startKernel({ bare });
    media = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "audio/mpeg" });
      response.end(Buffer.from("ID3 voice bytes"));
    });
    await new Promise<void>((resolve) => media.listen(0, "127.0.0.1", resolve));
    mediaUrl = `http://127.0.0.1:${(media.address() as AddressInfo).port}/voice.mp3`;
    const { peer } = kernel;
    peer.handlers.set("get_group_member_list", (params) => (String(params.group_id) === GROUP ? MEMBERS : { failed: { retcode: 1404, message: "group not found" } }));
    peer.handlers.set("get_group_member_info", (params) => MEMBERS.find((member) => member.user_id === Number(params.user_id)) ?? { failed: { retcode: 100, message: "member does not exist" } });
    peer.handlers.set("get_group_info", () => ({ failed: { retcode: 200, message: "internal error" } }));
    peer.handlers.set("get_image", () => ({ file: "/tmp/cat.png", base64: PNG.toString("base64") }));
    peer.handlers.set("get_record", () => ({ file: "/tmp/voice.amr", url: mediaUrl }));
    peer.handlers.set("get_group_file_url", (params) => (params.file_id === "f1" ? { url: mediaUrl } : { failed: { retcode: 404, message: "file not found" } }));
    peer.handlers.set("get_forward_msg", (params) => ({ message: [{ type: "node", data: { user_id: 1, nickname: "a", content: [{ type: "text", data: { text: `forward ${params.id}` } }] } }] }));
    peer.handlers.set("get_group_root_files", () => ({ files: [{ file_id: "f1", file_name: "notes.txt", size: 5 }], folders: [{ folder_id: "d1", folder_name: "docs" }] }));
  }, 30_000);
  afterAll(async () => {
    await kernel?.dispose();
    await new Promise((resolve) => media?.close(resolve));
  });

  it("OB-21 group members read as JSON Lines and paged with line selectors", async () => {
    const { runtime } = await invokeOneBot(kernel);
    const page = await runtime.resources.resolve(`onebot://${SELF}/group/${GROUP}/members:1-50`);
    expect(page.type).toBe("text");
    const lines = (page as { text: string }).text.trimEnd().split("\n");
    expect(lines).toHaveLength(50);
    expect(JSON.parse(lines[0])).toMatchObject({ user_id: 10_000, nickname: "member 1" });
    const next = (await runtime.resources.resolve(`onebot://${SELF}/group/${GROUP}/members:101-120`)) as { text: string };
    expect(next.text.trimEnd().split("\n").map((line) => JSON.parse(line).nickname)).toEqual(MEMBERS.slice(100).map((member) => member.nickname));
    const one = (await runtime.resources.resolve(`onebot://${SELF}/group/${GROUP}/member/10005`)) as { text: string; mediaType: string };
    expect(JSON.parse(one.text)).toMatchObject({ user_id: 10_005, nickname: "member 6" });
    const files = (await runtime.resources.resolve(`onebot://${SELF}/group/${GROUP}/files`)) as { text: string };
    expect(files.text.trimEnd().split("\n").map((line) => JSON.parse(line))).toEqual([
      { kind: "folder", folder_id: "d1", folder_name: "docs" },
      { kind: "file", file_id: "f1", file_name: "notes.txt", size: 5 },
    ]);
  });

  it("OB-21 image bytes come from base64, record and group file bytes from the returned URL; forward messages as JSON", async () => {
    const { runtime } = await invokeOneBot(kernel);
    const image = await runtime.resources.resolve(`onebot://${SELF}/image/abc.image`);
    expect(image).toMatchObject({ type: "file", mediaType: "image/png", immutable: true });
    expect(Buffer.from((image as { bytes: Uint8Array }).bytes).equals(PNG)).toBe(true);
    const record = await runtime.resources.resolve(`onebot://${SELF}/record/voice.amr`);
    expect(record).toMatchObject({ type: "file", immutable: true });
    expect(Buffer.from((record as { bytes: Uint8Array }).bytes).toString()).toBe("ID3 voice bytes");
    const file = await runtime.resources.resolve(`onebot://${SELF}/group/${GROUP}/file/f1`);
    expect(file).toMatchObject({ type: "file", mediaType: "audio/mpeg", immutable: true, filename: "f1" });
    expect((await codeOf(() => runtime.resources.resolve(`onebot://${SELF}/group/${GROUP}/file/nope`))).code).toBe("resource_not_found");
    const forward = (await runtime.resources.resolve(`onebot://${SELF}/forward/fw1`)) as { text: string };
    expect(JSON.parse(forward.text).message[0].data.content[0].data.text).toBe("forward fw1");
  });

  it("OB-21 OB-22 scope, accounts, meta view and failures map to resource errors", async () => {
    const { runtime, instance } = await invokeOneBot(kernel);
    const before = kernel.peer.calls.length;
    const meta = (await runtime.resources.resolve(`onebot://${SELF}/group/${GROUP}/members?view=meta`)) as { text: string };
    expect(meta.text).toContain("action: get_group_member_list");
    expect(meta.text).toContain("no action was called");
    expect(kernel.peer.calls.length).toBe(before);
    expect(await codeOf(() => runtime.resources.resolve("onebot://999/group/1"))).toEqual({ code: "resource_unavailable", message: "onebot://999: not a OneBot account of this runtime" });
    expect((await codeOf(() => runtime.resources.resolve(`onebot://${SELF}/group/42/members`))).message).toBe(`onebot://${SELF}/group/42/members: target outside this runtime's channels`);
    expect((await codeOf(() => runtime.resources.resolve(`onebot://${SELF}/msg/5`))).code).toBe("resource_unavailable");
    expect((await codeOf(() => runtime.resources.resolve(`onebot://${SELF}/group/${GROUP}/member/1`))).code).toBe("resource_not_found");
    expect(await codeOf(() => runtime.resources.resolve(`onebot://${SELF}/group/${GROUP}`))).toEqual({
      code: "resource_read_failed",
      message: `onebot://${SELF}/group/${GROUP}: OneBot action get_group_info failed: retcode 200: internal error`,
    });
    expect((await codeOf(() => runtime.resources.resolve(`onebot://${SELF}/nowhere`))).code).toBe("resource_not_found");
    await instance!.stop!();
    expect((await codeOf(() => runtime.resources.resolve(`onebot://${SELF}/group/${GROUP}`))).message).toMatch(/onebot/);
    expect(runtime.resources.listSchemes()).not.toContain("onebot");
  });
});
