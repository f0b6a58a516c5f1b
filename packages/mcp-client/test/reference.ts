// The official reference MCP servers from npm (dev dependencies; they run offline), as the tests start them:
// stdio entries, and the HTTP modes of server-everything forced onto 127.0.0.1.
import { fork, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const entry = (name: string) => join(dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`)), "dist", "index.js");

export const EVERYTHING = entry("server-everything");
export const MEMORY = entry("server-memory");
export const FILESYSTEM = entry("server-filesystem");
const LOOPBACK = fileURLToPath(new URL("./fixtures/loopback.mjs", import.meta.url));
export const SILENT = fileURLToPath(new URL("./fixtures/silent.mjs", import.meta.url));
export const ODD = fileURLToPath(new URL("./fixtures/odd-server.mjs", import.meta.url));

/** A stdio entry running a reference server with `args` (and anything else given). */
export function reference(path: string, args: string[] = [], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [path, ...args], ...extra };
}

export interface RemoteServer {
  url: string;
  port: number;
  child: ChildProcess;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
}

/**
 * server-everything in `streamableHttp` or `sse` mode on 127.0.0.1, on `port` (0: any free one); its output is
 * swallowed. Resolves once it listens.
 */
export function startEverything(mode: "streamableHttp" | "sse", port = 0): Promise<RemoteServer> {
  const child = fork(LOOPBACK, [EVERYTHING, mode], { env: { PATH: process.env.PATH, PORT: String(port) }, stdio: ["ignore", "ignore", "ignore", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`server-everything ${mode} exited with ${code} before listening`)));
    child.once("message", (message) => {
      const listening = (message as { port: number }).port;
      const path = mode === "sse" ? "/sse" : "/mcp";
      resolve({
        url: `http://127.0.0.1:${listening}${path}`,
        port: listening,
        child,
        kill: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGKILL");
          }),
      });
    });
  });
}
