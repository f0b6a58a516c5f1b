import type { ResourceCenter } from "../resources/index.js";
import type { IshikiAttachment } from "../types/index.js";

/** A tool's attachment record as the exit produces it (04 EX-17). */
export type ToolAttachmentRecord = Extract<IshikiAttachment, { source: "tool" }>;

/**
 * What the unified exit of one runtime works against. One context per runtime: the exit keeps a small memo
 * per context so that the AI SDK asking twice for the same call's output archives and records once.
 */
export interface ExitContext {
  /** For error texts and logs. */
  readonly runtimeId: string;
  /** Archives go to its store; URLs in results resolve through it. */
  readonly resources: ResourceCenter;
  /** Profile `resources.imageInput`: only then may a direct `read` choose its items' lifetime (EX-22). */
  readonly imageInput: boolean;
  /**
   * Persists a call's attachment record after the step's tool batch (EX-19). The runtime passes
   * `(record) => sendAttachmentRecord(agent, record)`. Called at most once per tool call, only when the call
   * produced items.
   */
  appendAttachment(record: ToolAttachmentRecord): void;
  /**
   * Tools whose final return declares media only in its top-level `attachments` array (EX-12); default
   * `["codemode"]`. Nothing else in their result is searched for media.
   */
  readonly programTools?: readonly string[];
}
