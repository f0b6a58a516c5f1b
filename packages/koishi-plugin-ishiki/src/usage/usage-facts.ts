import { createReadStream } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { countsOf, type TokenCounts } from "./usage-sum.js";

/** What a turn step was for, in reports; side requests name their requester (`IshikiUsage.purpose`). */
export const TURN_PURPOSE = "turn";

/** One model call found in a fact stream. */
export interface UsageItem {
  at: number;
  profile: string;
  /** `platform:selfId/channelId`, or `main` for a cross-mode runtime. */
  channel: string;
  model: string;
  purpose: string;
  counts: TokenCounts;
}

/** A runtime's fact stream on disk and the channel it belongs to. */
export interface StreamFile {
  path: string;
  channel: string;
}

/** `%XX` back to its character (spec 08 KP-15); a hashed long segment stays as stored. */
function decodeSegment(segment: string): string {
  return segment.replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

async function directories(path: string): Promise<string[]> {
  try {
    return (await readdir(path, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch {
    return [];
  }
}

/**
 * The fact streams of one profile directory (`<root>/runtimes/main` and `<root>/runtimes/<account>/<channel>`),
 * whether or not their runtime is running: usage is history, read from disk.
 */
export async function profileStreams(root: string): Promise<StreamFile[]> {
  const base = join(root, "runtimes");
  const files: StreamFile[] = [];
  for (const account of (await directories(base)).sort()) {
    if (account === "main") {
      files.push({ path: join(base, account, "events.jsonl"), channel: "main" });
      continue;
    }
    for (const channel of (await directories(join(base, account))).sort()) {
      files.push({ path: join(base, account, channel, "events.jsonl"), channel: `${decodeSegment(account)}/${decodeSegment(channel)}` });
    }
  }
  return files;
}

interface StoredEntry {
  type?: unknown;
  timestamp?: unknown;
  data?: Record<string, unknown>;
}

/**
 * Every model call of one stream at or after `since`: the usage of each assistant message (a turn step; one item
 * per call when it lists `calls`) and each `ishiki.usage` side request. Lines that do not parse are skipped (the
 * runtime that owns the file reports them, AG-7); a missing file has none.
 */
export async function readUsage(file: StreamFile, profile: string, since: number): Promise<UsageItem[]> {
  const items: UsageItem[] = [];
  let input: ReturnType<typeof createReadStream>;
  try {
    input = createReadStream(file.path, { encoding: "utf8" });
    await new Promise<void>((resolve, reject) => input.once("open", () => resolve()).once("error", reject));
  } catch {
    return items;
  }
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    // Only two kinds of line carry usage; everything else is skipped before parsing.
    if (!line.includes('"usage"')) continue;
    let entry: StoredEntry;
    try {
      entry = JSON.parse(line) as StoredEntry;
    } catch {
      continue;
    }
    const at = typeof entry.timestamp === "number" ? entry.timestamp : 0;
    if (at < since || entry.data === undefined) continue;
    items.push(...usageOf(entry, at, file.channel, profile));
  }
  return items;
}

/** One model call of an entry: the declared model that answered, what it was for, its tokens. */
export interface EntryCall {
  model: string;
  purpose: string;
  counts: TokenCounts;
}

/**
 * The model calls an entry records: an assistant message's step (one per call when it lists `calls`) or an
 * `ishiki.usage` side request; none for any other entry.
 */
export function entryCalls(entry: { type?: unknown; data?: unknown }): EntryCall[] {
  const data = entry.data as Record<string, unknown> | undefined;
  if (data === undefined || data === null) return [];
  const call = (model: unknown, purpose: string, usage: unknown): EntryCall => ({
    model: typeof model === "string" ? model : "unknown",
    purpose,
    counts: countsOf(usage as never),
  });
  if (entry.type === "ishiki.usage") return [call(data.model, typeof data.purpose === "string" ? data.purpose : "unknown", data.usage)];
  if (entry.type !== "message" || data.role !== "assistant" || data.usage === undefined) return [];
  if (Array.isArray(data.calls) && data.calls.length > 0) {
    return (data.calls as Array<Record<string, unknown>>).map((one) => call(one.model, typeof one.purpose === "string" ? one.purpose : TURN_PURPOSE, one.usage));
  }
  return [call(data.model, TURN_PURPOSE, data.usage)];
}

function usageOf(entry: StoredEntry, at: number, channel: string, profile: string): UsageItem[] {
  return entryCalls(entry).map((call) => ({ at, profile, channel, ...call }));
}
