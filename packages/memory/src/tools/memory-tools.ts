import { jsonSchema, tool, ToolError } from "koishi-plugin-ishiki";
import type { ToolSet } from "koishi-plugin-ishiki";
import type { RuntimeMemory } from "../runtime-memory.js";
import { searchMemories } from "../search/memory-search.js";
import type { MemoryRecord, MemoryScope } from "../store/memory-record.js";
import { memoryUrl, memoryView, memoryViewSchema, type MemoryView } from "./memory-view.js";

export interface SaveInput {
  text: string;
  scope?: MemoryScope;
  subject?: string;
  source?: string;
  id?: number;
}

export interface SaveOutput {
  id: number;
  url: string;
  status: "saved" | "revised" | "duplicate";
}

export interface SearchInput {
  query: string;
  scope?: MemoryScope;
  subject?: string;
  limit?: number;
}

export interface SearchOutput {
  results: MemoryView[];
  ranking: "bm25" | "hybrid";
}

const scopeProperty = {
  type: "string",
  enum: ["person", "channel", "profile"],
  description: "person: one user, visible in every channel of this bot profile; channel: this chat only; profile: everyone, everywhere in this profile.",
} as const;

const MAX_SEARCH_LIMIT = 50;

/** Called after a successful save, e.g. to consider consolidation; never awaited by the tool. */
export type AfterSave = (record: MemoryRecord) => void;

/** `memory_save`, `memory_forget` and `memory_search` of one runtime; in codemode they are program-callable. */
export function createMemoryTools(memory: RuntimeMemory, afterSave: AfterSave = () => {}): ToolSet {
  const { settings } = memory;

  const memory_save = tool<SaveInput, SaveOutput, {}>({
    description: `Remember a durable fact for later conversations, or revise memory id. Save what will still matter (preferences, relationships, plans, facts about people or this chat), one fact per memory, in at most ${settings.maxTextChars} characters; never secrets. Returns { id, url, status }.`,
    inputSchema: jsonSchema<SaveInput>({
      type: "object",
      properties: {
        text: { type: "string", description: "The fact, self-contained (name who it is about)." },
        scope: { ...scopeProperty, description: `${scopeProperty.description} Default: person.` },
        subject: { type: "string", description: "person: the user id as chat shows it, default the author of source; channel: the channel id, default this channel." },
        source: { type: "string", description: "The id of the message that taught it (as #id in chat)." },
        id: { type: "number", description: "Revise this memory instead of adding one (its scope and subject stay)." },
      },
      required: ["text"],
      additionalProperties: false,
    }),
    outputSchema: jsonSchema<SaveOutput>({
      type: "object",
      properties: { id: { type: "number" }, url: { type: "string" }, status: { type: "string", enum: ["saved", "revised", "duplicate"] } },
      required: ["id", "url", "status"],
    }),
    execute: async (input) => {
      const text = input.text.trim();
      if (text === "") throw new ToolError("text is empty");
      if (text.length > settings.maxTextChars) throw new ToolError(`text has ${text.length} characters; the limit is ${settings.maxTextChars}: keep one fact per memory`);
      const fact = input.source === undefined || input.source.trim() === "" ? undefined : await memory.conversation.message(input.source.trim());
      if (input.source !== undefined && input.source.trim() !== "" && !fact) throw new ToolError(`source ${input.source}: no such message in this conversation; give the id shown as #id, or omit source`);
      const source = fact ? `${fact.platform}:${fact.channelId}#${fact.messageId}` : "";
      if (input.id !== undefined) {
        const record = await memory.visible(input.id);
        if (!record) throw new ToolError(`memory ${input.id} not found`);
        if (input.scope !== undefined && input.scope !== record.scope) throw new ToolError(`memory ${input.id} is a ${record.scope} memory; to move it, forget it and save a new one`);
        const revised = await memory.store.revise(record, { text, source: source || record.source, label: record.label });
        afterSave(revised);
        return { id: revised.id, url: memoryUrl(revised.id), status: "revised" };
      }
      const scope = input.scope ?? "person";
      const { subject, label } = memory.resolveSubject(scope, input.subject?.trim() || undefined, fact);
      const memories = await memory.memories();
      const same = memories.about(scope, subject).find((record) => record.text === text);
      if (same) return { id: same.id, url: memoryUrl(same.id), status: "duplicate" };
      const record = await memory.store.save({ profile: memory.profile, scope, subject, label, text, source, origin: memory.currentChannel() ?? "" });
      afterSave(record);
      return { id: record.id, url: memoryUrl(record.id), status: "saved" };
    },
  });

  const memory_forget = tool<{ id: number }, { ok: true; id: number }, {}>({
    description: "Forget memory id for good (it was wrong, outdated, or someone asked to be forgotten). Returns { ok: true, id }.",
    inputSchema: jsonSchema<{ id: number }>({ type: "object", properties: { id: { type: "number" } }, required: ["id"], additionalProperties: false }),
    outputSchema: jsonSchema<{ ok: true; id: number }>({ type: "object", properties: { ok: { type: "boolean", const: true }, id: { type: "number" } }, required: ["ok", "id"] }),
    execute: async ({ id }) => {
      const record = await memory.visible(id);
      if (!record) throw new ToolError(`memory ${id} not found`);
      await memory.store.forget([record]);
      return { ok: true, id };
    },
  });

  const memory_search = tool<SearchInput, SearchOutput, {}>({
    description: `Search long-term memory by keywords (Chinese or English), best first; default ${settings.searchLimit} results. Returns { results: [{ id, scope, subject, label, text, source, updatedAt, url }], ranking }.`,
    inputSchema: jsonSchema<SearchInput>({
      type: "object",
      properties: {
        query: { type: "string", description: "Keywords: names, topics, things." },
        scope: scopeProperty,
        subject: { type: "string", description: "Only memories about this user id (scope person) or channel id (scope channel)." },
        limit: { type: "number", description: `1 to ${MAX_SEARCH_LIMIT}.` },
      },
      required: ["query"],
      additionalProperties: false,
    }),
    outputSchema: jsonSchema<SearchOutput>({
      type: "object",
      properties: { results: { type: "array", items: memoryViewSchema }, ranking: { type: "string", enum: ["bm25", "hybrid"] } },
      required: ["results", "ranking"],
    }),
    execute: async (input, options) => {
      const limit = Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.floor(input.limit ?? settings.searchLimit)));
      if (input.subject !== undefined && input.scope === undefined) throw new ToolError("subject needs scope (person or channel)");
      const subject = input.subject === undefined || input.scope === undefined ? undefined : memory.resolveSubject(input.scope, input.subject, undefined).subject;
      const outcome = await searchMemories(await memory.memories(), memory.viewer, { query: input.query, limit, scope: input.scope, subject }, memory.embedder, options.abortSignal);
      if (outcome.fallback) memory.warn(`memory_search: ${outcome.fallback}; ranked by BM25 alone`);
      return { results: outcome.hits.map((hit) => memoryView(hit.record)), ranking: outcome.ranking };
    },
  });

  return { memory_save, memory_forget, memory_search };
}
