import type { AgentEntry } from "@yesimagent/core";
import type { IshikiDelivery } from "../types/index.js";
import { factIdentity, factMedia } from "./fact-media.js";
import { toolItemKey } from "./keys.js";

/** The fold of one item key's delivery entries (04 EX-32). */
export interface DeliveryState {
  /** Shown in a persisted request: a `once` item is consumed, a `recent`/`retain` one viewed. */
  shown: boolean;
  /** Final: never shown again. */
  released: boolean;
  /** The terminal decision, replayed verbatim. */
  terminal?: string;
}

/**
 * What attachments need from the whole fact stream, folded incrementally: delivery states, the lifetimes of
 * persisted `recent`/`retain` items, fact entry ids, and retractions with the URLs they withdraw. The agent's
 * history only grows (or is cleared), so each step folds just the entries appended since the last one. When
 * the runtime's retention feeds it (`observe`, issue 19), every entry of the stream is folded once as it is
 * read or appended, and the tail a step receives is not folded again.
 */
export class AttachmentHistory {
  readonly delivery = new Map<string, DeliveryState>();
  /** Key → URL of persisted `recent`/`retain` tool items, released for good once their source leaves (EX-25). */
  readonly lasting = new Map<string, string>();
  /** Fact message id → its entry id, for facts with media (keys `platform:<entry id>:<n>`, EX-20). */
  readonly factEntryIds = new Map<string, string>();
  readonly retractedFacts = new Set<string>();
  readonly retractedUrls = new Set<string>();
  private readonly factUrls = new Map<string, string[]>();
  private source: readonly AgentEntry[] | undefined;
  private folded = 0;
  private observing = false;

  /** One entry of the stream, in order (the runtime's retention). */
  observe(entry: AgentEntry): void {
    this.observing = true;
    this.fold(entry);
  }

  /** The stream was cleared. */
  clear(): void {
    this.reset(undefined);
  }

  /** The fold, JSON-serialisable, for a history checkpoint (issue 19). */
  save(): SavedAttachmentHistory {
    return {
      delivery: [...this.delivery],
      lasting: [...this.lasting],
      factEntryIds: [...this.factEntryIds],
      factUrls: [...this.factUrls],
      retractedFacts: [...this.retractedFacts],
      retractedUrls: [...this.retractedUrls],
    };
  }

  /** Takes back what `save` returned, as if the entries it folded had been observed; false when it is not one. */
  restore(saved: unknown): boolean {
    if (!isSavedHistory(saved)) return false;
    this.reset(undefined);
    this.observing = true;
    for (const [key, state] of saved.delivery) this.delivery.set(key, state);
    for (const [key, url] of saved.lasting) this.lasting.set(key, url);
    for (const [id, entryId] of saved.factEntryIds) this.factEntryIds.set(id, entryId);
    for (const [identity, urls] of saved.factUrls) this.factUrls.set(identity, urls);
    for (const identity of saved.retractedFacts) this.retractedFacts.add(identity);
    for (const url of saved.retractedUrls) this.retractedUrls.add(url);
    return true;
  }

  update(entries: readonly AgentEntry[]): void {
    if (this.observing) return;
    if (entries !== this.source || entries.length < this.folded) this.reset(entries);
    for (; this.folded < entries.length; this.folded++) this.fold(entries[this.folded]);
  }

  state(key: string): DeliveryState {
    return this.delivery.get(key) ?? { shown: false, released: false };
  }

  private reset(entries: readonly AgentEntry[] | undefined): void {
    this.source = entries;
    this.folded = 0;
    for (const collection of [this.delivery, this.lasting, this.factEntryIds, this.factUrls]) collection.clear();
    for (const set of [this.retractedFacts, this.retractedUrls]) set.clear();
  }

  private fold(entry: AgentEntry): void {
    if (entry.type === "ishiki.delivery") return this.foldDelivery(entry.data as IshikiDelivery);
    if (entry.type !== "message" || entry.data.role !== "custom") return;
    const message = entry.data;
    if (message.type === "ishiki.attachment" && message.data.source === "tool") {
      const { toolCallId, items } = message.data;
      items.forEach((item, index) => item.lifetime !== "once" && this.lasting.set(toolItemKey(toolCallId, index), item.url));
    } else if (message.type === "ishiki.message.created") {
      const urls = factMedia(message.data).map((medium) => medium.url);
      if (urls.length === 0) return;
      this.factEntryIds.set(message.id, entry.id);
      this.factUrls.set(factIdentity(message.data), urls);
    } else if (message.type === "ishiki.message.deleted") {
      const identity = factIdentity(message.data);
      this.retractedFacts.add(identity);
      for (const url of this.factUrls.get(identity) ?? []) this.retractedUrls.add(url);
    }
  }

  private foldDelivery(delivery: IshikiDelivery): void {
    for (const { key, outcome, decision } of delivery.items) {
      const state = this.state(key);
      if (outcome === "shown") state.shown = true;
      else if (outcome === "released") state.released = true;
      else if (outcome === "terminal" && state.terminal === undefined && decision !== undefined) state.terminal = decision;
      this.delivery.set(key, state);
    }
  }
}

export interface SavedAttachmentHistory {
  delivery: Array<[string, DeliveryState]>;
  lasting: Array<[string, string]>;
  factEntryIds: Array<[string, string]>;
  factUrls: Array<[string, string[]]>;
  retractedFacts: string[];
  retractedUrls: string[];
}

function isSavedHistory(value: unknown): value is SavedAttachmentHistory {
  if (typeof value !== "object" || value === null) return false;
  const saved = value as Record<string, unknown>;
  const pairs = ["delivery", "lasting", "factEntryIds", "factUrls"].every((key) => Array.isArray(saved[key]) && (saved[key] as unknown[]).every((pair) => Array.isArray(pair) && pair.length === 2));
  return pairs && Array.isArray(saved.retractedFacts) && Array.isArray(saved.retractedUrls);
}
