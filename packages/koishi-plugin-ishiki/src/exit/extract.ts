import type { ToolResultOutput } from "@ai-sdk/provider-utils";
import { isRecord, mediaNode, type MediaData } from "./media-node.js";

/** Turns one media node into its marker text (archiving it on the way). */
export type MediaReplacer = (media: Exclude<MediaData, { kind: "text" }>) => Promise<string>;

const MCP_BLOCK_TYPES = new Set(["text", "image", "audio", "resource", "resource_link"]);

/** An array of MCP content blocks, as MCP tools return them (10 MC-12). */
function isMcpBlocks(value: unknown): value is Array<Record<string, unknown>> {
  return Array.isArray(value) && value.length > 0 && value.every((block) => isRecord(block) && MCP_BLOCK_TYPES.has(block.type as string));
}

/** Every explicit media node of a JSON value, depth first; nodes are not searched inside. */
function findNodes(value: unknown, found: Map<object, MediaData>, open: object[]): void {
  // A cycle is reported by the JSON step; here it only must not loop. Open ancestors are few, a set of every
  // visited object would cost more than the walk.
  if (typeof value !== "object" || value === null || open.includes(value)) return;
  if (Array.isArray(value)) {
    open.push(value);
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (typeof item === "object" && item !== null) findNodes(item, found, open);
    }
    open.pop();
    return;
  }
  // Every explicit node has a string `type`: other objects skip the full check.
  const media = typeof (value as { type?: unknown }).type === "string" ? mediaNode(value) : undefined;
  if (media) {
    found.set(value, media);
    return;
  }
  if (!isRecord(value) || value instanceof Date) return;
  open.push(value);
  for (const key in value) {
    const item: unknown = (value as Record<string, unknown>)[key];
    if (typeof item === "object" && item !== null && Object.hasOwn(value, key)) findNodes(item, found, open);
  }
  open.pop();
}

/** The value with each found node replaced, copying only the paths that change (inputs are never mutated). */
function rebuild(value: unknown, replaced: Map<object, string>, open: Set<object>): unknown {
  if (typeof value !== "object" || value === null || open.has(value)) return value;
  const marker = replaced.get(value);
  if (marker !== undefined) return marker;
  open.add(value);
  const out = rebuildChildren(value, replaced, open);
  open.delete(value);
  return out;
}

function rebuildChildren(value: object, replaced: Map<object, string>, open: Set<object>): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const next = rebuild(value[index], replaced, open);
      if (next !== value[index]) (out ??= value.slice())[index] = next;
    }
    return out ?? value;
  }
  if (!isRecord(value) || value instanceof Date) return value;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const next = rebuild(value[key], replaced, open);
    if (next !== value[key]) (out ??= { ...value })[key] = next;
  }
  return out ?? value;
}

/** Nodes are found synchronously, archived in document order, then substituted: a JSON without media costs one walk. */
async function replaceNodes(value: unknown, replace: MediaReplacer): Promise<unknown> {
  const found = new Map<object, MediaData>();
  findNodes(value, found, []);
  if (found.size === 0) return value;
  const replaced = new Map<object, string>();
  for (const [node, media] of found) replaced.set(node, media.kind === "text" ? media.text : await replace(media));
  return rebuild(value, replaced, new Set());
}

async function joinMcpBlocks(blocks: Array<Record<string, unknown>>, replace: MediaReplacer): Promise<string> {
  const lines: string[] = [];
  for (const block of blocks) {
    if (block.type === "text" && typeof block.text === "string") lines.push(block.text);
    else {
      const replaced = await replaceNodes(block, replace);
      lines.push(typeof replaced === "string" ? replaced : JSON.stringify(replaced));
    }
  }
  return lines.join("\n");
}

/**
 * Media extraction and node → marker on a display (04 EX-2 steps 3-4, EX-3, EX-7): JSON is searched for
 * explicit nodes only, copying just the paths that change (inputs are never mutated); an array of MCP blocks
 * becomes one `\n`-joined text; content parts stay content with media parts turned into text parts.
 */
export async function extractMedia(display: ToolResultOutput, replace: MediaReplacer): Promise<ToolResultOutput> {
  if (display.type === "json") {
    if (isMcpBlocks(display.value)) return { type: "text", value: await joinMcpBlocks(display.value, replace) };
    const value = await replaceNodes(display.value, replace);
    return value === display.value ? display : { ...display, value: value as typeof display.value };
  }
  if (display.type !== "content") return display;
  const parts: typeof display.value = [];
  let changed = false;
  for (const part of display.value) {
    const media = part.type === "text" || part.type === "custom" ? undefined : mediaNode(part);
    if (!media) {
      parts.push(part);
      continue;
    }
    changed = true;
    parts.push({ type: "text", text: media.kind === "text" ? media.text : await replace(media) });
  }
  return changed ? { ...display, value: parts } : display;
}
