import { Buffer } from "node:buffer";
import { ResourceError } from "koishi-plugin-ishiki";
import type { ResourcePayload, SchemeHandler } from "koishi-plugin-ishiki";
import type { RuntimeMemory } from "./runtime-memory.js";
import type { MemoryRecord } from "./store/memory-record.js";
import { subjectId } from "./tools/memory-view.js";

const USAGE = "expected memory://<id>, memory://person/<userId>, memory://channel[/<channelId>] or memory://profile";

function describe(record: MemoryRecord): string {
  const about = record.scope === "profile" ? "the profile" : `${record.scope} ${subjectId(record.subject)}${record.label ? ` (${record.label})` : ""}`;
  const source = record.source ? `; source ${record.source}` : "";
  return `memory ${record.id} about ${about}; saved ${record.createdAt.toISOString()}, updated ${record.updatedAt.toISOString()}${source}\n${record.text}`;
}

const listing = (records: readonly MemoryRecord[]): string => (records.length === 0 ? "no memories" : records.map((record) => `[${record.id}] ${record.text}`).join("\n"));

/**
 * `memory://` for `read` (issue 24): one memory by id, or every memory about a person, a channel or the
 * profile, oldest first. Only what this runtime may see resolves; anything else is `resource_not_found`, so a
 * URL never confirms that a hidden memory exists.
 */
export class MemoryScheme implements SchemeHandler {
  public readonly scheme = "memory";

  public constructor(private readonly memory: RuntimeMemory) {}

  public async resolve(input: string): Promise<ResourcePayload> {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw new ResourceError("invalid_resource_uri", USAGE);
    }
    const host = url.hostname;
    const rest = decodeURIComponent(url.pathname.replace(/^\//, ""));
    const text = /^\d+$/.test(host) && rest === "" ? await this.one(Number(host), input) : await this.many(host, rest, input);
    return { type: "text", url: input, text, size: Buffer.byteLength(text), mediaType: "text/plain" };
  }

  private async one(id: number, input: string): Promise<string> {
    const record = await this.memory.visible(id);
    if (!record) throw new ResourceError("resource_not_found", `${input}: no such memory here`);
    return describe(record);
  }

  private async many(kind: string, id: string, input: string): Promise<string> {
    const memories = await this.memory.memories();
    const ordered = (records: MemoryRecord[]) => listing(records.reverse());
    if (kind === "profile" && id === "") return ordered(memories.about("profile", ""));
    if (kind !== "person" && kind !== "channel") throw new ResourceError("invalid_resource_uri", `${input}: ${USAGE}`);
    if (kind === "person" && id === "") throw new ResourceError("invalid_resource_uri", `${input}: ${USAGE}`);
    let subject: string;
    try {
      subject = this.memory.resolveSubject(kind, id === "" ? undefined : id, undefined).subject;
    } catch (error) {
      // Another channel of a channel runtime, or a subject whose platform is unknown: nothing to show here.
      throw new ResourceError("resource_not_found", `${input}: ${(error as Error).message}`);
    }
    return ordered(memories.about(kind, subject));
  }
}
