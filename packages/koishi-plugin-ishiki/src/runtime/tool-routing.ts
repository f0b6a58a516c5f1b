import type { ToolSet } from "ai";
import type { ToolCallers } from "@yesimagent/core";
import { CODEMODE_CALLER } from "../tools/index.js";

/** Tools only the model calls (spec 05 CT-2), besides `codemode.directOnly`. */
export const DIRECT_ONLY_TOOLS: readonly string[] = ["finish", "wait", "search", "codemode"];
/** Tools the model and programs both call, besides `codemode.direct`. */
export const SHARED_TOOLS: readonly string[] = ["send_message", "read"];

export interface ToolRoutes {
  /** The AG-17 table: shared tools `["direct", "codemode"]`, sandbox-only `["codemode"]`; direct-only unlisted. */
  readonly toolCallers: ToolCallers;
  /** Tools programs may call, in assembly order. */
  readonly programCallable: readonly string[];
  /** Tools the model may call. */
  readonly direct: readonly string[];
  /** Names in `direct`/`directOnly` that match no tool (CT-3 warns about them). */
  readonly unknown: readonly string[];
}

/** The CT-2 routing of one assembled tool set as a ToolCallers table (CT-3). */
export function routeTools(tools: ToolSet, settings: { direct: readonly string[]; directOnly: readonly string[] }): ToolRoutes {
  const directOnly = new Set([...DIRECT_ONLY_TOOLS, ...settings.directOnly]);
  const shared = new Set([...SHARED_TOOLS, ...settings.direct]);
  const toolCallers: Record<string, readonly string[]> = {};
  const programCallable: string[] = [];
  const direct: string[] = [];
  for (const name of Object.keys(tools)) {
    if (directOnly.has(name)) {
      direct.push(name);
      continue;
    }
    programCallable.push(name);
    if (shared.has(name)) direct.push(name);
    toolCallers[name] = shared.has(name) ? ["direct", CODEMODE_CALLER] : [CODEMODE_CALLER];
  }
  const unknown = [...settings.direct, ...settings.directOnly].filter((name) => !Object.hasOwn(tools, name));
  return { toolCallers, programCallable, direct, unknown };
}
