import { createUserMessage, type AgentMessage } from "@yesimagent/core";
import type { RuntimeDomain } from "../../extension/index.js";
import { formatAuthor } from "../shared/index.js";
import { NARRATIVE_MARKER } from "../shared/narrative-marker.js";
import { authorNames, storyLines, type StoryLine } from "./narrative-story.js";

const FOLDED = new Set(["user", "assistant", "tool"]);

function isFolded(message: AgentMessage): boolean {
  if (message.role === "custom") return message.type === "ishiki.message.created" || message.type === "ishiki.message.deleted";
  return FOLDED.has(message.role);
}

/**
 * The `narrative` rendering (spec 06 EN-21): chat facts, wake prompts and the bot's assistant and tool messages
 * fold into one user message that starts with the marker line, followed by `<scene>`, `<cast>`, `<story>` and
 * `<latest>` (what came after the last assistant step and its results). System messages, catalogs and other
 * custom messages stay before it; attachment records follow it, in their order (EN-8).
 */
export function renderNarrative(messages: readonly AgentMessage[], domain: RuntimeDomain, now: number): AgentMessage[] {
  const folded = messages.filter(isFolded);
  if (folded.length === 0) return [...messages];
  const names = authorNames(folded);
  const split = latestStart(folded);
  const story = folded.slice(0, split).flatMap((message) => storyLines(message, names));
  const latest = folded.slice(split).flatMap((message) => storyLines(message, names));
  const cross = domain.mode === "cross";
  const days = new DayHeadings();
  const text = [
    NARRATIVE_MARKER,
    section("scene", scene(domain, now)),
    section("cast", cast(folded, domain)),
    section("story", lines(story, days, cross, "(nothing yet)")),
    section("latest", lines(latest, days, cross, "(nothing new since your last step)")),
  ].join("\n");
  const last = folded[folded.length - 1];
  const narrative = createUserMessage(text, { id: `${folded[0].id}#narrative`, timestamp: last.timestamp });
  const before = messages.filter((message) => !isFolded(message) && !(message.role === "custom" && message.type === "ishiki.attachment"));
  const after = messages.filter((message) => message.role === "custom" && message.type === "ishiki.attachment");
  return [...before, narrative, ...after];
}

/** Index of the first folded message after the last assistant step (the assistant message and its tool results). */
function latestStart(folded: readonly AgentMessage[]): number {
  let index = folded.findLastIndex((message) => message.role === "assistant");
  if (index === -1) return 0;
  index += 1;
  while (index < folded.length && folded[index].role === "tool") index += 1;
  return index;
}

function section(tag: string, body: string): string {
  return `<${tag}>\n${body}\n</${tag}>`;
}

function scene(domain: RuntimeDomain, now: number): string {
  const time = `local time: ${localTime(now)}`;
  if (domain.mode === "cross") {
    const accounts = Object.keys(domain.accounts).join(", ");
    return [`platforms: ${accounts}`, "channels: several; each run of lines starts with its channel head [#<platform>:<selfId>/<channelId>]", time].join("\n");
  }
  const kind = domain.isDirect ? "private chat" : `group chat${domain.guildId === undefined ? "" : ` in guild ${domain.guildId}`}`;
  return [`platform: ${domain.platform}`, `channel: ${domain.channelId} (${kind})`, time].join("\n");
}

function cast(folded: readonly AgentMessage[], domain: RuntimeDomain): string {
  const selves = new Set<string>(domain.mode === "channel" ? [domain.selfId] : []);
  const people = new Map<string, string>();
  const meet = (id: string, name: string | undefined): void => {
    if (!people.has(id) || (name && people.get(id) === id)) people.set(id, name || id);
  };
  for (const message of folded) {
    if (message.role !== "custom") continue;
    if (message.type === "ishiki.message.created") {
      selves.add(message.data.selfId);
      meet(message.data.user.id, message.data.user.name);
      if (message.data.quote?.user) meet(message.data.quote.user.id, message.data.quote.user.name);
    } else if (message.type === "ishiki.message.deleted") {
      selves.add(message.data.selfId);
      if (message.data.userId !== undefined) meet(message.data.userId, undefined);
      if (message.data.operatorId !== undefined) meet(message.data.operatorId, undefined);
    }
  }
  const lines = [`- you: the bot (id ${[...selves].join(", ")}); lines saying "You" are yours`];
  for (const [id, name] of people) if (!selves.has(id)) lines.push(`- ${formatAuthor({ id, name })}`);
  return lines.join("\n");
}

/** Remembers the last date shown, so a heading marks each change of day across story and latest. */
class DayHeadings {
  private last: string | undefined;

  public heading(timestamp: number): string | undefined {
    const date = new Date(timestamp);
    const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
    if (day === this.last) return undefined;
    this.last = day;
    return `-- ${day} --`;
  }
}

function lines(story: readonly StoryLine[], days: DayHeadings, cross: boolean, empty: string): string {
  if (story.length === 0) return empty;
  const out: string[] = [];
  let channel: string | undefined;
  for (const line of story) {
    const heading = days.heading(line.timestamp);
    if (heading !== undefined) out.push(heading);
    if (cross && line.channel !== undefined && line.channel !== channel) out.push(line.channel);
    if (line.channel !== undefined) channel = line.channel;
    out.push(`[${clock(line.timestamp)}] ${line.text}`);
  }
  return out.join("\n");
}

function localTime(timestamp: number): string {
  const date = new Date(timestamp);
  const weekday = date.toLocaleDateString("en-US", { weekday: "long" });
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${clock(timestamp)} (${weekday})`;
}

function clock(timestamp: number): string {
  const date = new Date(timestamp);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}
