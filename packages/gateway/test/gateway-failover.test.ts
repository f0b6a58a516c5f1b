import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { FetchFunction } from "@ai-sdk/provider-utils";
import { streamText } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { createGateway } from "../src/index.js";
import type { GatewayLogger } from "../src/index.js";
import type { Handler, TestServer } from "./gateway-servers.js";
import { OPENAI_FIRST_TEXT, OPENAI_PRELUDE, json, openaiText, refusedUrl, sse, startServer } from "./gateway-servers.js";

const SECRET = "sk-primary-secret-7781";
const servers: TestServer[] = [];
const temps: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function recordingLogger() {
  const lines: string[] = [];
  const logger: GatewayLogger = {
    debug: (m) => lines.push(`debug ${m}`),
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
  return { lines, logger };
}

async function serve(handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

/** A gateway with group `main` = [primary:m, backup:m]; the backup always answers "from backup". */
async function setup(primaryUrl: string, options: { fetch?: FetchFunction; dumpDir?: string } = {}) {
  const backup = await serve((_, response) => sse(response, openaiText("from backup")));
  const { lines, logger } = recordingLogger();
  const gateway = createGateway({
    logger,
    env: { PRIMARY_KEY: SECRET },
    fetch: options.fetch,
    dumpDir: options.dumpDir,
    config: {
      providers: {
        primary: { api: "openai-completions", baseUrl: primaryUrl, apiKey: "${PRIMARY_KEY}", models: [{ id: "m" }] },
        backup: { api: "openai-completions", baseUrl: backup.url, models: [{ id: "m" }] },
      },
      groups: { main: { models: ["primary:m", "backup:m"] } },
    },
  });
  return { gateway, backup, lines };
}

/** Streams through `model` as an agent would; the stream's error, thrown or as a part, is returned. */
async function consume(model: LanguageModelV4): Promise<{ text: string; deltas: string[]; error?: unknown }> {
  const deltas: string[] = [];
  let error: unknown;
  try {
    for await (const part of streamText({ model, prompt: "hi", maxRetries: 0, onError: () => {} }).fullStream) {
      if (part.type === "text-delta") deltas.push(part.text);
      if (part.type === "error") error = part.error;
    }
  } catch (thrown) {
    error = thrown;
  }
  return { text: deltas.join(""), deltas, error };
}

async function run(gateway: ReturnType<typeof createGateway>, failoverOn: "unavailable" | "any" = "unavailable") {
  const { text, error } = await consume(gateway.profileModel("main", { failover: { backoffMs: 1, failoverOn } }));
  if (error) throw error;
  return text;
}

async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("gateway failover over HTTP", () => {
  const switching: Array<[string, Handler, RegExp]> = [
    ["a 500", (_, response) => json(response, 500, { error: { message: "upstream exploded" } }), /HTTP 500: upstream exploded/],
    ["a 401", (_, response) => json(response, 401, { error: { message: `Incorrect API key provided: ${SECRET}` } }), /HTTP 401: Incorrect API key provided: <redacted>/],
    ["a 429", (_, response) => json(response, 429, { error: { message: "slow down" } }), /HTTP 429: slow down/],
    ["a stream cut after stream-start", (_, response, raw) => {
      sse(response, OPENAI_PRELUDE, false);
      setTimeout(() => raw.socket.destroy(), 20);
    }, /unavailable: /],
  ];
  for (const [name, handler, message] of switching) {
    it(`GW-22 GW-23 GW-30 ${name} switches to the next member and logs the switch`, async () => {
      const primary = await serve(handler);
      const { gateway, backup, lines } = await setup(primary.url);
      expect(await run(gateway)).toBe("from backup");
      expect(primary.received).toHaveLength(1);
      expect(backup.received).toHaveLength(1);
      const switched = lines.find((line) => line.startsWith("info primary:m failed"));
      expect(switched).toMatch(/^info primary:m failed \(unavailable: .*\); trying backup:m in \d+ ms$/);
      expect(switched).toMatch(message);
      expect(gateway.group("main").status()["primary:m"]).toEqual({ state: "closed", failures: 1 });
      expect(lines.join("\n")).not.toContain(SECRET);
    });
  }

  it("GW-22 a refused connection switches to the next member", async () => {
    const { gateway, lines } = await setup(await refusedUrl());
    expect(await run(gateway)).toBe("from backup");
    expect(lines.some((line) => /^info primary:m failed \(unavailable: Cannot connect to API/.test(line))).toBe(true);
  });

  it("GW-22 a timeout switches to the next member", async () => {
    const hanging = await serve(() => {});
    const timing: FetchFunction = (input, init) =>
      globalThis.fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(200)]) : AbortSignal.timeout(200) });
    const { gateway, lines } = await setup(hanging.url, { fetch: timing });
    expect(await run(gateway)).toBe("from backup");
    expect(lines.some((line) => /^info primary:m failed \(unavailable: .*timeout.*\); trying backup:m/i.test(line))).toBe(true);
  });

  it("GW-23 a stream cut after the first text delta does not switch; the error reaches the consumer", async () => {
    const primary = await serve((_, response, raw) => {
      sse(response, OPENAI_FIRST_TEXT, false);
      setTimeout(() => raw.socket.destroy(), 20);
    });
    const { gateway, backup, lines } = await setup(primary.url);
    const { deltas, error } = await consume(gateway.profileModel("main", { failover: { backoffMs: 1 } }));
    expect(deltas).toEqual(["Par"]);
    expect(error).toMatchObject({ cause: { message: "terminated" } });
    expect(backup.received).toHaveLength(0);
    expect(lines.filter((line) => line.startsWith("info"))).toEqual([]);
    expect(gateway.group("main").status()["primary:m"].failures).toBe(1);
  });

  it("GW-22 a 400 rethrows with failoverOn unavailable and switches with failoverOn any", async () => {
    const primary = await serve((_, response) => json(response, 400, { error: { message: "bad request" } }));
    const first = await setup(primary.url);
    await expect(run(first.gateway)).rejects.toMatchObject({ statusCode: 400 });
    expect(first.backup.received).toHaveLength(0);

    const second = await setup(primary.url);
    expect(await run(second.gateway, "any")).toBe("from backup");
    expect(second.lines.some((line) => line.startsWith("info primary:m failed (rejected: HTTP 400: bad request); trying backup:m"))).toBe(true);
    // A rejected request says nothing about the endpoint's health.
    expect(second.gateway.group("main").status()["primary:m"].failures).toBe(0);
  });

  it("GW-23 GW-30 exhaustion rethrows the last error and lists every attempt", async () => {
    const down = await serve((_, response) => json(response, 503, { error: { message: "maintenance" } }));
    const { lines, logger } = recordingLogger();
    const gateway = createGateway({
      logger,
      config: {
        providers: { a: { api: "openai-completions", baseUrl: down.url }, b: { api: "openai-completions", baseUrl: await refusedUrl() } },
        groups: { pair: { models: ["a:m", "b:m"] } },
      },
    });
    const { error } = await consume(gateway.profileModel("pair", { failover: { backoffMs: 1 } }));
    expect(error).toMatchObject({ message: expect.stringMatching(/^Cannot connect to API/) });
    const listing = lines.find((line) => line.startsWith("warn pair: all 2 attempts failed"));
    expect(listing).toMatch(/1\) a:m failed \(unavailable: HTTP 503: maintenance\); 2\) b:m failed \(unavailable: Cannot connect to API/);
  });

  it("GW-28 GW-29 dumpRequests writes redacted request and response files and never leaks the key", async () => {
    const primary = await serve((_, response) => json(response, 401, { error: { message: `Incorrect API key provided: ${SECRET}` } }));
    const dumpDir = await mkdtemp(join(tmpdir(), "gateway-dump-"));
    temps.push(dumpDir);
    const { gateway, lines } = await setup(primary.url, { dumpDir });
    expect(await run(gateway)).toBe("from backup");
    await eventually(async () => (await readdir(dumpDir)).length === 4);
    await eventually(async () => (await readFile(join(dumpDir, (await readdir(dumpDir)).find((f) => f.endsWith(".sse"))!), "utf8")).includes("[DONE]"));
    const files = (await readdir(dumpDir)).sort();
    expect(files.filter((file) => file.endsWith("-request.json"))).toHaveLength(2);
    expect(files.some((file) => /^\d+-\d+-response\.json$/.test(file))).toBe(true);
    expect(files.some((file) => /^\d+-\d+-response\.sse$/.test(file))).toBe(true);
    const contents = await Promise.all(files.map((file) => readFile(join(dumpDir, file), "utf8")));
    const all = contents.join("\n");
    expect(all).not.toContain(SECRET);
    expect(lines.join("\n")).not.toContain(SECRET);
    const firstRequest = JSON.parse(contents[files.findIndex((file) => file.endsWith("-request.json"))]);
    expect(firstRequest).toMatchObject({ method: "POST", headers: { authorization: "<redacted>" }, body: { model: "m" } });
    expect(all).toContain("from backup");
  });

  it("GW-28 a dump failure is logged and the request still succeeds", async () => {
    const server = await serve((_, response) => sse(response, openaiText("fine")));
    const { lines, logger } = recordingLogger();
    const blocker = join(await mkdtemp(join(tmpdir(), "gateway-dump-")), "file");
    temps.push(dirname(blocker));
    await writeFile(blocker, "not a directory");
    const gateway = createGateway({
      logger,
      dumpDir: join(blocker, "requests"),
      config: { providers: { p: { api: "openai-completions", baseUrl: server.url } } },
    });
    expect(await streamText({ model: gateway.languageModel("p:m"), prompt: "x", maxRetries: 0 }).text).toBe("fine");
    await eventually(async () => lines.length > 0);
    expect(lines.some((line) => line.startsWith(`warn dumpRequests: cannot write to ${join(blocker, "requests")}`))).toBe(true);
  });
});
