import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResourceCenter, type OwnedResourceCenter } from "./center.js";
import type { FilePayload, TextPayload } from "./payload.js";
import { ResourceError } from "./resource-error.js";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const MIB = 1024 * 1024;

let server: Server;
let origin: string;
let home: string;
let center: OwnedResourceCenter;
const hits = new Map<string, number>();

async function rejection(promise: Promise<unknown>): Promise<ResourceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResourceError);
  return error as ResourceError;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? "/";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const hop = /^\/hop\/(\d+)$/.exec(path);
    if (hop) {
      const n = Number(hop[1]);
      res.writeHead(302, { location: n === 0 ? "/img/photo%20one.png" : `/hop/${n - 1}` }).end();
    } else if (path === "/img/photo%20one.png") {
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(PNG);
    } else if (path === "/to-file") {
      res.writeHead(301, { location: "file:///etc/passwd" }).end();
    } else if (path === "/declared-huge") {
      res.writeHead(200, { "content-length": String(21 * MIB) });
      res.write(Buffer.alloc(1024));
      // the client gives up after the header; end the response so the socket closes
      setTimeout(() => res.destroy(), 200);
    } else if (path === "/chunked-huge") {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      const chunk = Buffer.alloc(MIB, 1);
      let sent = 0;
      const pump = () => {
        while (sent < 21) {
          sent++;
          if (!res.write(chunk)) return res.once("drain", pump);
        }
        res.end();
      };
      pump();
      res.on("error", () => undefined);
    } else if (path === "/slow") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("partial");
      setTimeout(() => res.end(), 3000);
    } else if (path === "/missing") {
      res.writeHead(404, "Not Found").end("nope");
    } else if (path === "/slow-single") {
      setTimeout(() => res.writeHead(200, { "content-type": "text/plain" }).end("shared body"), 300);
    } else {
      res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  home = await mkdtemp(join(tmpdir(), "ishiki-fetch-"));
  center = createResourceCenter({ runtimeId: "p:fetch", home, fetchLimits: { timeoutMs: 1000 } });
});

afterAll(async () => {
  center.dispose();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(home, { recursive: true, force: true });
});

describe("lazy asset fetch over HTTP", () => {
  it("RS-28 follows up to 5 redirects, sniffs the type and takes a safe basename", async () => {
    const url = await center.store.registerAsset(`${origin}/hop/4`);
    const payload = (await center.resolve(url)) as FilePayload;
    expect(payload).toMatchObject({ type: "file", mediaType: "image/png", size: PNG.length, immutable: true });
    expect(hits.get("/hop/4")).toBe(1);
    const direct = await center.store.registerAsset(`${origin}/img/photo%20one.png`);
    expect(await center.resolve(direct)).toMatchObject({ mediaType: "image/png", filename: "photo_one.png" });
    const tooMany = await center.store.registerAsset(`${origin}/hop/5`);
    const error = await rejection(center.resolve(tooMany));
    expect(error.code).toBe("resource_read_failed");
    expect(error.message).toMatch(/more than 5 redirects/);
  });

  it("RS-28 QA-9 a redirect to file: is refused", async () => {
    const url = await center.store.registerAsset(`${origin}/to-file`);
    expect((await rejection(center.resolve(url))).code).toBe("resource_unavailable");
  });

  it("RS-28 the 20 MiB cap applies to the declared and to the actual length", async () => {
    const patient = createResourceCenter({ runtimeId: "p:patient", home });
    const declared = await rejection(patient.resolve(await patient.store.registerAsset(`${origin}/declared-huge`)));
    expect(declared.code).toBe("resource_too_large");
    expect(declared.message).toMatch(/declares 21 MiB/);
    const actual = await rejection(patient.resolve(await patient.store.registerAsset(`${origin}/chunked-huge`)));
    expect(actual.code).toBe("resource_too_large");
    expect(actual.message).toMatch(/more than the 20 MiB/);
    patient.dispose();
  });

  it("RS-28 non-2xx, unreachable and timed-out fetches are resource_read_failed", async () => {
    const missing = await rejection(center.resolve(await center.store.registerAsset(`${origin}/missing`)));
    expect([missing.code, missing.message]).toEqual(["resource_read_failed", expect.stringMatching(/HTTP 404 Not Found$/)]);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await rejection(center.resolve(await center.store.registerAsset(`http://127.0.0.1:${port}/x`)));
    expect(unreachable.code).toBe("resource_read_failed");
    const started = Date.now();
    const slow = await rejection(center.resolve(await center.store.registerAsset(`${origin}/slow`)));
    expect([slow.code, slow.message]).toEqual(["resource_read_failed", expect.stringMatching(/no complete response within 1 s/)]);
    expect(Date.now() - started).toBeLessThan(2900);
  });

  it("RS-29 concurrent readers share one fetch; later reads use the stored bytes", async () => {
    const url = await center.store.registerAsset(`${origin}/slow-single`);
    const results = await Promise.all(Array.from({ length: 5 }, () => center.resolve(url)));
    for (const result of results) expect((result as TextPayload).text).toBe("shared body");
    expect(hits.get("/slow-single")).toBe(1);
    const other = createResourceCenter({ runtimeId: "p:fetch", home, fetchLimits: { timeoutMs: 1000 } });
    expect(await other.resolve(url)).toMatchObject({ text: "shared body" });
    expect(hits.get("/slow-single")).toBe(1);
    other.dispose();
  });

  it("RS-28 failures name the asset URL, never the source", async () => {
    const src = `${origin}/missing?token=abc123`;
    const error = await rejection(center.resolve(await center.store.registerAsset(src)));
    expect(error.message).not.toContain("token");
    expect(error.message.startsWith("asset://")).toBe(true);
  });
});
