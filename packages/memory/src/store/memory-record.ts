/** Who a memory is about (issue 24): a platform user, a channel, or the profile itself. */
export type MemoryScope = "person" | "channel" | "profile";

export const MEMORY_SCOPES: readonly MemoryScope[] = ["person", "channel", "profile"];

/**
 * One remembered fact, a row of `ishiki_memory`. `subject` is `<platform>:<userId>` for a person,
 * `<platform>:<channelId>` for a channel and empty for the profile; `source` is the fact that taught it,
 * `<platform>:<channelId>#<messageId>`, or empty when the model named none.
 */
export interface MemoryRecord {
  id: number;
  profile: string;
  scope: MemoryScope;
  subject: string;
  /** The subject's display name when it was saved (a user's nickname, a group's name), indexed with the text. */
  label: string;
  text: string;
  source: string;
  /** `<platform>:<channelId>` of the conversation in which the model saved it. */
  origin: string;
  createdAt: Date;
  updatedAt: Date;
  /** The vector of `text` under `embeddingModel`, for hybrid ranking; null until computed. */
  embedding: number[] | null;
  embeddingModel: string;
}

/** What the model or a command may change; the store fills in ids and times. */
export type MemoryDraft = Pick<MemoryRecord, "profile" | "scope" | "subject" | "label" | "text" | "source" | "origin">;
