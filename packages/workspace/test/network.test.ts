import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getNetworkCommandNames } from "just-bash";
import type { BashResult } from "../src/index.js";
import { call, invokeWorkspace, startKernel, type Kernel } from "./support.js";

let kernel: Kernel;
let server: Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  kernel = await startKernel({ bare: { model: "mock:m", channels: { "mock:bot": ["*"] } } });
  server = createServer((_request, response) => {
    hits += 1;
    response.end("loopback secret");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await kernel.dispose();
});

describe("network", () => {
  it("WS-17 network off: no network commands at all", async () => {
    const ws = await invokeWorkspace(kernel, {});
    expect(getNetworkCommandNames().length).toBeGreaterThan(0);
    for (const command of [...getNetworkCommandNames(), "wget"]) {
      const result = await call<BashResult>(ws.tools, "bash", { command: `${command} http://127.0.0.1:${port}/` });
      expect(result.exitCode, command).toBe(127);
      expect(result.stderr).toContain("command not found");
    }
    expect(hits).toBe(0);
  });

  it("WS-17 network on: curl exists but loopback, private and link-local addresses are denied", async () => {
    const ws = await invokeWorkspace(kernel, { network: true });
    const help = await call<BashResult>(ws.tools, "bash", { command: "curl --help" });
    expect(help.exitCode).toBe(0);
    for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`, `http://[::1]:${port}/`, "http://10.0.0.1/", "http://192.168.1.1/", "http://169.254.169.254/latest/meta-data/"]) {
      const result = await call<BashResult>(ws.tools, "bash", { command: `curl -s -m 2 ${url}` });
      expect(result.exitCode, url).not.toBe(0);
      expect(result.stdout).not.toContain("loopback secret");
    }
    expect(hits).toBe(0);
  });
});
