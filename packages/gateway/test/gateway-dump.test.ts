import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createDumpingFetch } from "../src/dump.js";
import { silentLogger } from "../src/logger.js";
import { startServer } from "./gateway-servers.js";
import type { TestServer } from "./gateway-servers.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

describe("request dumps", () => {
  it("GW-28 the body is tee'd and the decoded response drops content-encoding and content-length", async () => {
    const body = JSON.stringify({ answer: "unpacked", token: "tok-abcdef" });
    const server: TestServer = await startServer((_, response) => {
      const packed = gzipSync(body);
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": String(packed.length) });
      response.end(packed);
    });
    const dir = await mkdtemp(join(tmpdir(), "gateway-dump-"));
    cleanups.push(() => server.close(), () => rm(dir, { recursive: true, force: true }));
    const dumping = createDumpingFetch(globalThis.fetch, { dir, logger: silentLogger, redact: (text) => text.split("tok-abcdef").join("<redacted>") });

    const response = await dumping(`${server.url}/v1/embeddings`, {
      method: "POST",
      headers: { "x-goog-api-key": "AIza-1", "Proxy-Authorization": "Basic x", "x-trace": "t-1" },
      body: JSON.stringify({ input: "hi" }),
    });
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("content-length")).toBeNull();
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.text()).toBe(body);

    let files: string[] = [];
    for (let i = 0; i < 100 && files.length < 2; i++) {
      files = (await readdir(dir)).sort();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(files).toEqual([expect.stringMatching(/^\d+-1-request\.json$/), expect.stringMatching(/^\d+-1-response\.json$/)]);
    const request = JSON.parse(await readFile(join(dir, files[0]), "utf8"));
    expect(request).toEqual({
      method: "POST",
      url: `${server.url}/v1/embeddings`,
      headers: { "x-goog-api-key": "<redacted>", "proxy-authorization": "<redacted>", "x-trace": "t-1" },
      body: { input: "hi" },
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await readFile(join(dir, files[1]), "utf8")).toBe(body.replace("tok-abcdef", "<redacted>"));
  });
});
