import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BashResult } from "../src/index.js";
import { call, exists, failure, invokeWorkspace, startKernel, type Invoked, type Kernel } from "./support.js";

let kernel: Kernel;
let ws: Invoked;
let workspace: string;
let server: Server;
let origin: string;
let hits = 0;
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

beforeAll(async () => {
  server = createServer((_request, response) => {
    hits += 1;
    response.setHeader("content-type", "image/png");
    response.end(PNG);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  kernel = await startKernel({ bare: { model: "mock:m", channels: { "mock:bot": ["*"] } } });
  ws = await invokeWorkspace(kernel);
  workspace = join(ws.host.home, "workspace");
});

afterAll(async () => {
  await kernel.dispose();
  await new Promise((resolve) => server.close(resolve));
});

describe("layout and schemes", () => {
  it("WS-3 /home is the read-only runtime home, /home/workspace the writable default cwd", async () => {
    await writeFile(join(ws.host.home, "notes-at-home.txt"), "home file\n");
    expect(await call<BashResult>(ws.tools, "bash", { command: "pwd; cat /home/notes-at-home.txt" })).toEqual({ stdout: "/home/workspace\nhome file\n", stderr: "", exitCode: 0 });
    // just-bash aborts the script when a redirection cannot be written: an interpreter error (WS-10).
    expect(await call<BashResult>(ws.tools, "bash", { command: "echo x > /home/new.txt" })).toEqual({ stdout: "", stderr: "bash: EROFS: read-only file system: /home/new.txt", exitCode: 1 });
    expect(await exists(join(ws.host.home, "new.txt"))).toBe(false);
    expect(await exists(workspace)).toBe(true);
  });

  it("OV-20 seed data path: notes.txt read through workspace:// whole, tasks.txt written with exactly the TODO lines", async () => {
    const notes = ["shopping list", "TODO: buy milk", "called Bob", "TODO: fix the bike", "  TODO: not at line start", "TODO: write report", ""].join("\n");
    await writeFile(join(workspace, "notes.txt"), notes);
    const read = await ws.host.resources.resolve("workspace:///home/workspace/notes.txt");
    expect(read.type).toBe("text");
    const text = read.type === "text" ? read.text : "";
    expect(text).toBe(notes);
    const todos = text.split("\n").filter((line) => line.startsWith("TODO:"));
    const content = `${todos.join("\n")}\n`;
    expect(await call(ws.tools, "write_file", { path: "/home/workspace/tasks.txt", content })).toEqual({ ok: true, bytes: Buffer.byteLength(content) });
    expect(await readFile(join(workspace, "tasks.txt"), "utf8")).toBe("TODO: buy milk\nTODO: fix the bike\nTODO: write report\n");
  });

  it("WS-21 workspace:// reads exactly what cat sees, in-memory paths included", async () => {
    await call(ws.tools, "bash", { command: "printf 'scratch\\n' > /tmp/scratch.txt; printf 'one\\ntwo\\nthree\\n' > lines.txt" });
    const scratch = await ws.host.resources.resolve("workspace:///tmp/scratch.txt");
    expect(scratch.type === "text" && scratch.text).toBe("scratch\n");
    const cat = await call<BashResult>(ws.tools, "bash", { command: "cat lines.txt" });
    const whole = await ws.host.resources.resolve("workspace:///home/workspace/lines.txt");
    expect(whole.type === "text" && whole.text).toBe(cat.stdout);
    const range = await ws.host.resources.resolve("workspace:///home/workspace/lines.txt:2-3");
    expect(range.type === "text" && range.text).toBe("two\nthree\n");
    const listing = await ws.host.resources.resolve("workspace:///home/workspace");
    expect(listing.type === "text" && listing.text.split("\n")).toContain("lines.txt");
  });

  it("WS-21 large text pages continue on the workspace:// URL itself", async () => {
    const line = `${"x".repeat(99)}\n`;
    await writeFile(join(workspace, "big.txt"), line.repeat(5000));
    const first = await ws.host.resources.resolve("workspace:///home/workspace/big.txt", { firstPage: true });
    expect(first.type).toBe("text");
    const source = first.type === "text" ? first.source : undefined;
    expect(source?.url).toBe("workspace:///home/workspace/big.txt");
    const next = await ws.host.resources.resolve("workspace:///home/workspace/big.txt#offset=499900");
    expect(next.type === "text" && next.text).toBe(line);
  });

  it("WS-21 binary files are media with immutable: false; relative URLs are invalid", async () => {
    await writeFile(join(workspace, "pixel.png"), PNG);
    const media = await ws.host.resources.resolve("workspace:///home/workspace/pixel.png");
    expect(media).toMatchObject({ type: "file", mediaType: "image/png", immutable: false, size: PNG.length });
    for (const url of ["workspace://home/workspace/pixel.png", "workspace://notes.txt"]) {
      await expect(ws.host.resources.resolve(url)).rejects.toMatchObject({ code: "invalid_resource_uri", message: expect.stringContaining("workspace:// takes an absolute sandbox path") });
    }
    await expect(ws.host.resources.resolve("workspace:///home/workspace/absent.txt")).rejects.toMatchObject({ code: "resource_not_found" });
  });

  it("WS-23 /home/.ishiki lists assets and artifacts without fetching; bytes equal read's", async () => {
    const store = ws.host.resources.store;
    const asset = await store.registerAsset(`${origin}/pixel.png`, { mediaType: "image/png" });
    const id = asset.slice("asset://".length);
    const artifact = await store.writeArtifact("bash", new TextEncoder().encode("raw output"), { mediaType: "text/plain" });
    const [, namespace, name] = /^artifact:\/\/([^/]+)\/(.+)$/.exec(artifact)!;

    const listing = await call<BashResult>(ws.tools, "bash", { command: `ls /home/.ishiki; ls /home/.ishiki/assets; ls /home/.ishiki/artifacts/${namespace}; stat -c %s /home/.ishiki/assets/${id}` });
    expect(listing.stdout.split("\n")).toEqual(["artifacts", "assets", id, name, expect.any(String), ""]);
    expect(hits).toBe(0);
    expect(await exists(store.paths("asset", id).bytes)).toBe(false);

    const copied = await call<BashResult>(ws.tools, "bash", { command: `cp /home/.ishiki/assets/${id} /home/workspace/copy.png; cat /home/.ishiki/artifacts/${namespace}/${name}` });
    expect(copied).toEqual({ stdout: "raw output", stderr: "", exitCode: 0 });
    expect(hits).toBe(1);
    const read = await ws.host.resources.resolve(asset);
    expect(read.type === "file" && Buffer.from(read.bytes)).toEqual(await readFile(join(workspace, "copy.png")));
    expect(await readFile(join(workspace, "copy.png"))).toEqual(PNG);

    const write = await call<BashResult>(ws.tools, "bash", { command: `rm /home/.ishiki/assets/${id}` });
    expect(write.stderr).toContain(`/home/.ishiki/assets/${id}': EROFS: read-only file system`);
    expect((await failure(ws.tools, "read_file", { path: "/home/.ishiki/assets/nope" })).message).toBe("ENOENT: no such file: /home/.ishiki/assets/nope");
  });
});
