import { createWriteStream } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { FetchFunction } from "@ai-sdk/provider-utils";
import type { GatewayLogger } from "./logger.js";
import { REDACTED, REDACTED_HEADERS } from "./redact.js";

export interface DumpOptions {
  dir: string;
  logger: GatewayLogger;
  /** Removes known secrets from anything written. */
  redact: (text: string) => string;
}

function requestRecord(input: Parameters<FetchFunction>[0], init: RequestInit | undefined): unknown {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const headers = Object.fromEntries(
    [...new Headers(init?.headers).entries()].map(([name, value]) => [name, REDACTED_HEADERS.has(name) ? REDACTED : value]),
  );
  let body: unknown = init?.body;
  if (typeof body === "string") {
    try {
      body = JSON.parse(body);
    } catch {
      // Not JSON: keep the text as sent.
    }
  } else if (body != null) {
    body = `<${Object.prototype.toString.call(body).slice(8, -1)} body>`;
  }
  return { method: init?.method ?? "GET", url, headers, body };
}

/**
 * Wraps `fetch` so each exchange is written to `<dir>/<epochMs>-<seq>-request.json` and `…-response.sse`
 * or `.json` (spec 02 GW-28, GW-29). The response body is tee'd; as the body handed back is already
 * decoded, `content-encoding` and `content-length` are dropped from it. A failing dump is logged and never
 * fails the request.
 */
export function createDumpingFetch(base: FetchFunction, { dir, logger, redact }: DumpOptions): FetchFunction {
  let seq = 0;
  let ready: Promise<unknown> | undefined;
  const warn = (error: unknown) => logger.warn(`dumpRequests: cannot write to ${dir}: ${redact(String((error as Error)?.message ?? error))}`);

  return async (input, init) => {
    const prefix = join(dir, `${Date.now()}-${++seq}`);
    ready ??= mkdir(dir, { recursive: true });
    const written = ready
      .then(() => writeFile(`${prefix}-request.json`, redact(JSON.stringify(requestRecord(input, init), null, 2))))
      .catch(warn);
    const response = await base(input, init);
    if (!response.body) return response;

    const [handed, dumped] = response.body.tee();
    const type = response.headers.get("content-type") ?? "";
    const file = `${prefix}-response.${type.includes("text/event-stream") ? "sse" : "json"}`;
    void written.then(async () => {
      const text = dumped.pipeThrough(new TextDecoderStream()) as unknown as WebReadableStream<string>;
      const source = Readable.fromWeb(text, { objectMode: true }).map((chunk: string) => redact(chunk));
      await pipeline(source, createWriteStream(file));
    }).catch(warn);

    const headers = new Headers(response.headers);
    headers.delete("content-encoding");
    headers.delete("content-length");
    return new Response(handed, { status: response.status, statusText: response.statusText, headers });
  };
}
