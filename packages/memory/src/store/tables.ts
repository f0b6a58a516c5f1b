import type { Context } from "koishi";
import type { MemoryRecord } from "./memory-record.js";

/** One side request of the memory extension (an embedding or a consolidation), kept for its cost. */
export interface MemoryUsageRecord {
  id: number;
  profile: string;
  kind: "embed" | "consolidate";
  model: string;
  inputTokens: number;
  outputTokens: number;
  at: Date;
}

export const MEMORY_TABLE = "ishiki_memory";
export const USAGE_TABLE = "ishiki_memory_usage";

declare module "koishi" {
  interface Tables {
    [MEMORY_TABLE]: MemoryRecord;
    [USAGE_TABLE]: MemoryUsageRecord;
  }
}

/**
 * Declares the extension's tables on Koishi's `database` (minato): whichever driver serves it (the SQLite of
 * `ishiki-memory/sqlite`, MySQL, PostgreSQL) creates or migrates them when it is ready.
 */
export function defineTables(ctx: Context): void {
  ctx.model.extend(
    MEMORY_TABLE,
    {
      id: "unsigned",
      profile: "string(64)",
      scope: "string(16)",
      subject: "string(255)",
      label: "string(255)",
      text: "text",
      source: "string(255)",
      origin: "string(255)",
      createdAt: "timestamp",
      updatedAt: "timestamp",
      embedding: { type: "json", nullable: true, initial: null },
      embeddingModel: "string(255)",
    },
    { autoInc: true, primary: "id", indexes: [["profile", "scope", "subject"]] },
  );
  ctx.model.extend(
    USAGE_TABLE,
    {
      id: "unsigned",
      profile: "string(64)",
      kind: "string(16)",
      model: "string(255)",
      inputTokens: "unsigned",
      outputTokens: "unsigned",
      at: "timestamp",
    },
    { autoInc: true, primary: "id", indexes: [["profile", "at"]] },
  );
}
