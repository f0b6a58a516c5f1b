import type { ActionRunner } from "../action-runner.js";
import type { CatalogEntry } from "../catalog/catalog-entry.js";
import type { OneBotActionsSettings } from "../settings.js";

/** What the tool factories of both modes share. */
export interface ToolContext {
  runner: ActionRunner;
  settings: OneBotActionsSettings;
  /** The entries exposed this turn (OB-8). */
  exposed: readonly CatalogEntry[];
  /** Cross runtimes take an `account` input (OB-1). */
  cross: boolean;
}

export const ACCOUNT_PROPERTY = { type: "string", description: 'The OneBot account, "onebot:<selfId>"; required when the runtime has several.' } as const;

/** The `caller` of a tool's execute options (05 CT-8), absent for direct calls. */
export function callerOf(execution: unknown): unknown {
  return (execution as { caller?: unknown } | undefined)?.caller;
}
