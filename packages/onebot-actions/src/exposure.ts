import type { ActionRisk, CatalogEntry, Implementation } from "./catalog/catalog-entry.js";
import type { OneBotActionsSettings } from "./settings.js";

const RANK: Record<ActionRisk, number> = { read: 0, write: 1, destructive: 2, secret: 3 };

export function riskAtMost(risk: ActionRisk, limit: ActionRisk): boolean {
  return RANK[risk] <= RANK[limit];
}

export interface Exposure {
  entries: CatalogEntry[];
  /** Why destructive entries that passed the filters stay hidden (OB-8). */
  hidden: string[];
}

/**
 * OB-8: entries the implementation supports, in `categories`, with risk ≤ `maxRisk`, plus `include`, minus
 * `exclude`, never `secret`; destructive ones only with an `allow` rule for them or approvals on.
 */
export function exposedEntries(catalog: readonly CatalogEntry[], settings: OneBotActionsSettings, implementation: Implementation): Exposure {
  const entries: CatalogEntry[] = [];
  const hidden: string[] = [];
  for (const entry of catalog) {
    if (entry.risk === "secret" || !entry.implementations.includes(implementation) || settings.exclude.includes(entry.action)) continue;
    const selected = (settings.categories.includes(entry.category) && riskAtMost(entry.risk, settings.maxRisk)) || settings.include.includes(entry.action);
    if (!selected) continue;
    if (entry.risk === "destructive" && !approvalsOn(settings) && !settings.allow.some((rule) => rule.action === entry.action)) {
      hidden.push(`action "${entry.action}" stays hidden: destructive actions need an allow rule or approval approvers`);
      continue;
    }
    entries.push(entry);
  }
  return { entries, hidden };
}

/** Approvals are on when someone may approve (OB-15). */
export function approvalsOn(settings: OneBotActionsSettings): boolean {
  return settings.approval.approvers.length > 0;
}
