import type { AgentEntry, AgentMessage } from "@yesimagent/core";
import type { RuntimeDomain } from "../../extension/index.js";
import type { IshikiMessageCreated } from "../../types/index.js";
import { formatAuthor, textContent } from "../shared/index.js";
import { channelKey } from "./channel-key.js";

/** Channels the judge remembers at most (spec 06 EN-37); the least recently active is forgotten first. */
export const MAX_JUDGE_CHANNELS = 512;
const MAX_LINE_CHARS = 400;

export interface JudgeLine {
  at: number;
  /** `self` for the bot, else `Name(id)`. */
  author: string;
  text: string;
}

/** What the judge knows of one channel. */
export interface JudgeChannel {
  scene?: Pick<IshikiMessageCreated, "platform" | "selfId" | "channelId" | "isDirect">;
  lines: JudgeLine[];
  lastSpokeAt?: number;
  running: boolean;
  /** Facts arrived while a judgement ran: one more run on the newest window. */
  rerun: boolean;
  /** The newest fact's seq, the one a wake is for, and its message id. */
  seq: number;
  messageId?: string;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= MAX_LINE_CHARS ? flat : `${flat.slice(0, MAX_LINE_CHARS - 1)}…`;
}

/** Where a `send_message` call went: its `target` in cross mode, the runtime's channel otherwise. */
function sendKey(input: unknown, domain: RuntimeDomain): string | undefined {
  const parsed = typeof input === "string" ? safeJson(input) : input;
  const target = (parsed as { target?: { sid?: unknown; channelId?: unknown } } | undefined)?.target;
  if (typeof target?.sid === "string" && typeof target.channelId === "string") return `${target.sid}/${target.channelId}`;
  return domain.mode === "channel" ? channelKey(domain) : undefined;
}

function sentText(input: unknown): string {
  const parsed = typeof input === "string" ? safeJson(input) : input;
  const messages = (parsed as { messages?: unknown } | undefined)?.messages;
  return Array.isArray(messages) ? messages.filter((message): message is string => typeof message === "string").map(textContent).join(" / ") : "";
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The judge's per-channel windows (spec 06 EN-36, EN-37): the last messages of each channel, the bot's own
 * `send_message` calls labelled `self`, bounded to `MAX_JUDGE_CHANNELS` channels and `keep` lines each.
 */
export class JudgeWindows {
  private readonly channels = new Map<string, JudgeChannel>();

  public constructor(
    private readonly keep: number,
    private readonly domain: RuntimeDomain,
  ) {}

  public get(key: string): JudgeChannel {
    let channel = this.channels.get(key);
    if (channel === undefined) channel = { lines: [], running: false, rerun: false, seq: -1 };
    else this.channels.delete(key);
    this.channels.set(key, channel);
    if (this.channels.size > MAX_JUDGE_CHANNELS) this.channels.delete(this.channels.keys().next().value as string);
    return channel;
  }

  /** Records a message appended to the fact stream (live or read back from storage) at time `at`. */
  public record(message: AgentMessage, at: number): void {
    if (message.role === "custom" && message.type === "ishiki.message.created") {
      const fact = message.data;
      const channel = this.get(channelKey(fact));
      channel.scene = fact;
      this.push(channel, { at: fact.timestamp, author: formatAuthor(fact.user), text: clip(textContent(fact.content)) });
      return;
    }
    if (message.role !== "assistant" || typeof message.content === "string") return;
    for (const part of message.content) {
      if (part.type !== "tool-call" || part.toolName !== "send_message") continue;
      const key = sendKey(part.input, this.domain);
      if (key === undefined) continue;
      const channel = this.get(key);
      channel.lastSpokeAt = at;
      this.push(channel, { at, author: "self", text: clip(sentText(part.input)) });
    }
  }

  /** Seeds the windows with one stored entry, in stream order (the windows keep only their last lines). */
  public seed(entry: AgentEntry): void {
    if (entry.type === "message") this.record(entry.data, entry.timestamp);
  }

  public clear(): void {
    this.channels.clear();
  }

  /** What a restart needs of each channel (its lines, scene and when the bot last spoke), for the history checkpoint. */
  public save(): SavedJudgeChannel[] {
    return [...this.channels].map(([key, { scene, lines, lastSpokeAt }]) => ({ key, lines, ...(scene === undefined ? {} : { scene }), ...(lastSpokeAt === undefined ? {} : { lastSpokeAt }) }));
  }

  /** Takes back what `save` returned, least recently active channel first; false when it is not one. */
  public restore(saved: unknown): boolean {
    if (!Array.isArray(saved) || !saved.every(isSavedChannel)) return false;
    this.channels.clear();
    for (const { key, lines, scene, lastSpokeAt } of saved) {
      const channel = this.get(key);
      channel.lines = lines.slice(-(this.keep + 1));
      if (scene !== undefined) channel.scene = scene;
      if (lastSpokeAt !== undefined) channel.lastSpokeAt = lastSpokeAt;
    }
    return true;
  }

  private push(channel: JudgeChannel, line: JudgeLine): void {
    channel.lines.push(line);
    // One extra line: the pending message plus `keep` lines of history before it.
    if (channel.lines.length > this.keep + 1) channel.lines.splice(0, channel.lines.length - this.keep - 1);
  }
}

export interface SavedJudgeChannel {
  key: string;
  lines: JudgeLine[];
  scene?: JudgeChannel["scene"];
  lastSpokeAt?: number;
}

function isSavedChannel(value: unknown): value is SavedJudgeChannel {
  if (typeof value !== "object" || value === null) return false;
  const { key, lines, lastSpokeAt } = value as Partial<SavedJudgeChannel>;
  const isLine = (line: unknown): boolean => typeof line === "object" && line !== null && typeof (line as JudgeLine).at === "number" && typeof (line as JudgeLine).author === "string" && typeof (line as JudgeLine).text === "string";
  return typeof key === "string" && Array.isArray(lines) && lines.every(isLine) && (lastSpokeAt === undefined || typeof lastSpokeAt === "number");
}
