import { checkMessage } from "./message-check.js";

/** Why `data` is not valid for its type, or undefined when it is. Must not throw; called once per stored entry. */
export type DataCheck = (data: unknown) => string | undefined;

/**
 * Checks for the custom types a plugin declares (AG-2, AG-3), applied when a stored stream is read: an entry that
 * fails its check is skipped and reported like a corrupt line (AG-7), so one bad entry cannot fail every later
 * turn. Types without a check are accepted as they are.
 */
export interface EntryChecks {
  /** Custom entry types (`AgentCustomEntry`), by type: checks the entry's `data`. */
  entries?: Readonly<Record<string, DataCheck>>;
  /** Custom message types (`AgentCustomMessage`), by type: checks the message's `data`. */
  messages?: Readonly<Record<string, DataCheck>>;
}

// Own keys only: a type named `constructor` or `__proto__` must not find an inherited function.
const lookup = (map: Readonly<Record<string, DataCheck>> | undefined, type: string): DataCheck | undefined =>
  map !== undefined && Object.hasOwn(map, type) ? map[type] : undefined;

const LIFECYCLE = new Set(["turn.start", "turn.done", "turn.failed", "turn.aborted"]);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const BUILTIN: Record<string, (data: unknown, checks: EntryChecks) => string | undefined> = {
  message: (data, checks) =>
    checkMessage(data, (type, value) => {
      const problem = lookup(checks.messages, type)?.(value);
      return problem === undefined ? undefined : `${type} message: ${problem}`;
    }),
  event: (data) => {
    if (!isObject(data) || typeof data.type !== "string" || !LIFECYCLE.has(data.type)) return "event is not a turn lifecycle event";
    return typeof data.turnId === "string" ? undefined : "event turnId is not a string";
  },
  state: (data) => (isObject(data) && typeof data.version === "number" ? undefined : "state is not an object with a numeric version"),
};

/**
 * Why `record` (a parsed line with string `id` and `type`) is not a valid entry, or undefined. Built-in types are
 * checked by the core; custom ones by `checks`.
 */
export function checkEntry(record: Record<string, unknown>, checks: EntryChecks): string | undefined {
  if (typeof record.timestamp !== "number") return "timestamp is not a number";
  for (const key of ["parentId", "turnId"] as const) {
    if (record[key] !== undefined && typeof record[key] !== "string") return `${key} is not a string`;
  }
  const type = record.type as string;
  if (Object.hasOwn(BUILTIN, type)) return BUILTIN[type](record.data, checks);
  const problem = lookup(checks.entries, type)?.(record.data);
  return problem === undefined ? undefined : `${type}: ${problem}`;
}
