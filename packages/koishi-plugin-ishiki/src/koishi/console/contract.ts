// What the Ishiki console page receives: plain JSON shapes, shared by the server side and the client page
// (client/ imports these types only). Nothing here can write: the page's API is read-only (issue 21).

export type ProfileState = "active" | "waiting" | "failed";

export interface ProfileOverview {
  id: string;
  state: ProfileState;
  /** Services the profile waits for (engines, extensions), when waiting. */
  missing: string[];
  /** Why activation failed, when failed. */
  failure?: string;
  model: string;
  /** What the profile claims, as its `channels` say it. */
  claims: string;
  runtimes: RuntimeOverview[];
}

/** `running` while a turn is active, `idle` when loaded without a turn, `stopped` when only on disk. */
export type RuntimeState = "running" | "idle" | "starting" | "stopped";

export interface RuntimeOverview {
  /** `<profileId>/<platform>:<selfId>/<channelId>` or `<profileId>/main`; the key of the timeline calls. */
  id: string;
  state: RuntimeState;
  /** The last turn's outcome and when it ended. */
  lastTurn?: { outcome: "done" | "failed" | "aborted"; at: number; error?: string };
  /** Input plus output tokens of every model call since the UTC day began (as `ishiki.usage` counts them). */
  tokensToday: number;
  facts: number;
}

export interface ConsoleOverview {
  profiles: ProfileOverview[];
  /** When the overview was taken (server clock). */
  at: number;
}

export type TimelineKind =
  | "message.in"
  | "message.out"
  | "message.deleted"
  | "model"
  | "tool"
  | "codemode"
  | "tool.result"
  | "attachment"
  | "delivery"
  | "catalog"
  | "turn.start"
  | "turn.done"
  | "turn.failed"
  | "turn.aborted"
  | "compact"
  | "state"
  | "other";

/** One labelled text of a row; text over the fold is cut, and the rest is fetched page by page. */
export interface TimelineSection {
  label: string;
  text: string;
  /** Length of the whole text; more than `text.length` when folded. */
  length: number;
}

export interface TimelineRow {
  /** Position in the stream, 1-based, in append order. */
  seq: number;
  entryId: string;
  time: number;
  turnId?: string;
  kind: TimelineKind;
  title: string;
  /** One line shown folded. */
  summary?: string;
  /** Tool call id: a `tool.result` row belongs to the `tool`/`codemode` row with the same id. */
  callId?: string;
  /** The row's error, for failed tools and turns. */
  error?: string;
  sections: TimelineSection[];
}

export interface TimelinePage {
  runtimeId: string;
  rows: TimelineRow[];
  /** Facts in the stream when it was read. */
  total: number;
}

export interface TimelineQuery {
  /** Rows with `seq` < `before` (older pages). */
  before?: number;
  /** Rows with `seq` > `after` (following appends). */
  after?: number;
  /** Facts per page (default 100, at most 500). */
  limit?: number;
}

export interface SectionPage {
  text: string;
  offset: number;
  length: number;
}
