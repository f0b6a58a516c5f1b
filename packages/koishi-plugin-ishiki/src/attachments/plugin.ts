import { createEntry, type AgentEntry, type AgentMessage, type AgentPlugin } from "@yesimagent/core";
import type { ResourceCenter } from "../resources/index.js";
import type { IshikiDelivery } from "../types/index.js";
import { AttachmentHistory } from "./attachment-history.js";
import { factIdentity } from "./fact-media.js";
import { platformItemKey, toolItemKey } from "./keys.js";
import { platformRecord, platformRecordFact, PlatformRecords, type AttachmentMessage, type FactMessage } from "./platform-records.js";
import { renderRecord } from "./render.js";
import { selectAttachments, type Candidate } from "./selection.js";
import { resolveResourceSettings, type ResourceSettings } from "./settings.js";

export interface AttachmentPluginOptions {
  /** The runtime's center: attachment bytes are loaded through it. */
  resources: Pick<ResourceCenter, "resolve" | "store">;
  /** Profile `resources`; defaults of EX-27 for what is left out. */
  settings?: Partial<ResourceSettings>;
}

/**
 * The two agent plugins of a runtime's attachments. `associate` (`enforce: "pre"`) runs before the context
 * engine's hooks; `project` (`enforce: "post"`) after them. Register both on the runtime's agent.
 */
export interface AttachmentPlugins {
  /**
   * Writes a fact's platform record with the fact (EX-17); folds the fact stream, checks tool records against
   * active results and platform records against their facts, and places each after its fact (EX-26, EX-34).
   */
  readonly associate: AgentPlugin;
  /** Selects and projects records into user messages and records delivery with the step's batch (EX-23 .. EX-36). */
  readonly project: AgentPlugin;
  /**
   * The fold `associate` keeps, for the runtime's retention (issue 19): fed every entry of the stream, it no
   * longer folds the tail each step receives, so the agent may drop older entries from memory.
   */
  readonly history: Pick<AttachmentHistory, "observe" | "clear" | "save" | "restore">;
}

type DeliveryItem = IshikiDelivery["items"][number];
const FAILED_OUTPUTS = new Set(["error-text", "error-json", "execution-denied"]);

function isRecord(message: AgentMessage): message is AttachmentMessage {
  return message.role === "custom" && message.type === "ishiki.attachment";
}

function isFact(message: AgentMessage): message is FactMessage {
  return message.role === "custom" && message.type === "ishiki.message.created";
}

/**
 * The ingestion half of platform records (04 EX-17): each fact with `asset://` media is followed, in the same
 * write, by its record, so the record is persisted exactly when the fact is and survives restarts.
 */
async function withPlatformRecords(entries: AgentEntry[], store: AttachmentPluginOptions["resources"]["store"]): Promise<AgentEntry[] | undefined> {
  if (!entries.some((entry) => entry.type === "message" && isFact(entry.data) && entry.data.data.content.includes("asset://"))) return undefined;
  const out: AgentEntry[] = [];
  for (const entry of entries) {
    out.push(entry);
    if (entry.type !== "message" || !isFact(entry.data)) continue;
    const record = await platformRecord(entry.data, store);
    if (record) out.push(createEntry("message", record, entry.turnId === undefined ? {} : { turnId: entry.turnId }) as AgentEntry);
  }
  return out;
}

/** Tool results that count for association: successful ones of the active history (EX-26). */
function successfulResults(messages: readonly AgentMessage[]): Set<string> {
  const results = new Set<string>();
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-result" && !FAILED_OUTPUTS.has(part.output.type)) results.add(`${part.toolName}\n${part.toolCallId}`);
    }
  }
  return results;
}

/** Creates one runtime's attachment plugins; their state (delivery fold, completed platform records) is shared between them. */
export function createAttachmentPlugins(options: AttachmentPluginOptions): AttachmentPlugins {
  const settings = resolveResourceSettings(options.settings);
  const history = new AttachmentHistory();
  const platform = new PlatformRecords(options.resources, settings.imageInput);
  let pending: { turnId: string; stepNumber?: number; items: DeliveryItem[] } | undefined;

  const keyOf = (record: AttachmentMessage, index: number): string => {
    if (record.data.source === "tool") return toolItemKey(record.data.toolCallId, index);
    const factId = platformRecordFact(record.id);
    return platformItemKey(history.factEntryIds.get(factId) ?? factId, index);
  };

  const associate: AgentPlugin = {
    name: "ishiki.attachments.associate",
    enforce: "pre",
    onAppend: (entries) => withPlatformRecords(entries, options.resources.store),
    transformEntries(entries) {
      history.update(entries);
    },
    async transformMessages(messages) {
      // Most steps have no media at all: the history is then passed on untouched, with no per-message awaits.
      if (!messages.some(isRecord)) return undefined;
      let results: Set<string> | undefined;
      // A platform record counts only while its fact is in the active history and not retracted (EX-26).
      const platformOf = new Map<string, AttachmentMessage>();
      for (const message of messages) if (isRecord(message) && message.data.source === "platform") platformOf.set(platformRecordFact(message.id), message);
      const out: AgentMessage[] = [];
      for (const message of messages) {
        if (isRecord(message)) {
          if (message.data.source === "platform") continue;
          const { toolName, toolCallId, items } = message.data;
          results ??= successfulResults(messages);
          if (results.has(`${toolName}\n${toolCallId}`) && items.some((item) => !history.retractedUrls.has(item.url))) out.push(message);
          continue;
        }
        out.push(message);
        if (!isFact(message)) continue;
        const record = platformOf.get(message.id);
        if (record && !history.retractedFacts.has(factIdentity(message.data))) out.push(await platform.complete(record, message));
      }
      return out;
    },
  };

  const project: AgentPlugin = {
    name: "ishiki.attachments.project",
    enforce: "post",
    async transformMessages(messages, { turnId }) {
      const records = messages.filter(isRecord);
      const candidates: Candidate[] = [];
      const keysOf = new Map<AttachmentMessage, Array<{ key: string; index: number }>>();
      for (const record of records) {
        const keys: Array<{ key: string; index: number }> = [];
        record.data.items.forEach((item, index) => {
          if (history.retractedUrls.has(item.url)) return;
          const key = keyOf(record, index);
          keys.push({ key, index });
          candidates.push({ key, item, state: history.state(key) });
        });
        keysOf.set(record, keys);
      }
      const items: DeliveryItem[] = [];
      const active = new Set(candidates.map((candidate) => candidate.key));
      for (const [key, url] of history.lasting) {
        const state = history.state(key);
        if (!state.released && state.terminal === undefined && !active.has(key)) items.push({ key, url, outcome: "released" });
      }
      const selected = await selectAttachments(candidates, settings, (url) => options.resources.resolve(url));
      for (const { key, item } of candidates) {
        const choice = selected.get(key)!;
        if (choice.outcome === "terminal") items.push({ key, url: item.url, outcome: "terminal", decision: choice.decision });
        else if (choice.outcome) items.push({ key, url: item.url, outcome: choice.outcome });
      }
      pending = items.length === 0 ? undefined : { turnId, items };
      if (records.length === 0) return undefined;
      return messages.map((message) => {
        if (!isRecord(message)) return message;
        const data = message.data;
        const origin = data.source === "tool" ? `tool ${data.toolName} (call ${data.toolCallId})` : (platform.origins.get(message.id) ?? `message #${data.messageId}`);
        const shown = keysOf.get(message)!.map(({ key, index }) => ({ item: data.items[index], selected: selected.get(key)! }));
        return renderRecord({ id: message.id, timestamp: message.timestamp, origin, platform: data.source === "platform", items: shown }, settings.imageInput);
      });
    },
    prepareStep(step) {
      if (pending?.turnId === step.turnId) pending.stepNumber = step.stepNumber;
    },
    onAppend(entries) {
      if (pending?.stepNumber === undefined) return undefined;
      const { turnId, stepNumber, items } = pending;
      const batch = entries.some((entry) => entry.type === "message" && entry.data.role === "assistant" && entry.turnId === turnId);
      if (!batch) return undefined;
      pending = undefined;
      return [...entries, createEntry("ishiki.delivery", { turnId, stepNumber, items }, { turnId }) as AgentEntry];
    },
  };

  return { associate, project, history };
}
