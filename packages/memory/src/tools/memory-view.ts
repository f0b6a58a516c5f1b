import type { MemoryRecord, MemoryScope } from "../store/memory-record.js";

/** The display of one memory in tool results, as codemode signatures declare it. */
export interface MemoryView {
  id: number;
  scope: MemoryScope;
  /** The user or channel id as chat shows it (without the platform); empty for the profile. */
  subject: string;
  label: string;
  text: string;
  source: string;
  updatedAt: string;
  url: string;
}

export const memoryUrl = (id: number): string => `memory://${id}`;

/** The id part of a stored subject: `onebot:private:123` → `private:123`. */
export const subjectId = (subject: string): string => subject.slice(subject.indexOf(":") + 1);

export function memoryView(record: MemoryRecord): MemoryView {
  return {
    id: record.id,
    scope: record.scope,
    subject: subjectId(record.subject),
    label: record.label,
    text: record.text,
    source: record.source,
    updatedAt: record.updatedAt.toISOString(),
    url: memoryUrl(record.id),
  };
}

export const memoryViewSchema = {
  type: "object",
  properties: {
    id: { type: "number" },
    scope: { type: "string", enum: ["person", "channel", "profile"] },
    subject: { type: "string" },
    label: { type: "string" },
    text: { type: "string" },
    source: { type: "string" },
    updatedAt: { type: "string" },
    url: { type: "string" },
  },
  required: ["id", "scope", "subject", "label", "text", "source", "updatedAt", "url"],
} as const;
