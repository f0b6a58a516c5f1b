import type { AgentEntry, AgentMessage } from "@yesimagent/core";
import type { IshikiAttachment, IshikiCompact, IshikiDelivery, IshikiMessageCreated, IshikiMessageDeleted, IshikiReset, IshikiToolsCatalog, IshikiUsage } from "../../types/index.js";
import type { TimelineKind, TimelineRow, TimelineSection } from "./contract.js";

/** Characters of a section shown before it is folded; the rest is paged in by `ishiki/section`. */
export const FOLD_CHARS = 1_200;

type RowDraft = Omit<TimelineRow, "seq" | "entryId" | "time" | "turnId" | "sections"> & { sections: Array<[label: string, text: string]> };

/**
 * The rows of one fact (`seq` is its 1-based position): one per message, tool call, tool result, turn event or
 * custom entry. Pure and per fact, so a page of the stream and the facts appended after it map the same way;
 * the page joins a `tool.result` to its call by `callId`. Sections hold whole texts; `foldRows` cuts them.
 */
export function rowsOf(entry: AgentEntry, seq: number): TimelineRow[] {
  const drafts = draftsOf(entry);
  return drafts.map((draft) => ({
    seq,
    entryId: entry.id,
    time: entry.timestamp,
    ...(entry.turnId === undefined ? {} : { turnId: entry.turnId }),
    ...draft,
    sections: draft.sections.map(([label, text]) => ({ label, text, length: text.length })),
  }));
}

/** The rows with every section cut at the fold. */
export function foldRows(rows: TimelineRow[]): TimelineRow[] {
  return rows.map((row) => ({ ...row, sections: row.sections.map(fold) }));
}

function fold(section: TimelineSection): TimelineSection {
  return section.text.length <= FOLD_CHARS ? section : { ...section, text: section.text.slice(0, FOLD_CHARS) };
}

function draftsOf(entry: AgentEntry): RowDraft[] {
  const data = entry.data as unknown;
  // A string: custom entry types of extensions reach the default branch.
  const type: string = entry.type;
  switch (type) {
    case "message":
      return messageDrafts(data as AgentMessage);
    case "event":
      return [eventDraft(data as { type: string; error?: { name: string; message: string }; reason?: string; steps?: number; totalUsage?: Usage })];
    case "state":
      return [{ kind: "state", title: "state saved", sections: [["state", show(data)]] }];
    case "ishiki.compact": {
      const compact = data as IshikiCompact;
      return [{ kind: "compact", title: "compaction", summary: `covers the stream up to ${compact.lastEntryId}`, sections: [["summary", compact.summary]] }];
    }
    case "ishiki.usage": {
      // A model call outside a turn step: compaction, a judge, memory (its requester is `purpose`).
      const call = data as IshikiUsage;
      return [{ kind: "model", title: `model call for ${call.purpose}`, summary: [call.model, describeUsage(call.usage as Usage)].filter(Boolean).join(" · "), sections: [] }];
    }
    case "ishiki.reset": {
      const reset = data as IshikiReset;
      return [{ kind: "compact", title: "context reset", ...(reset.by ? { summary: `by ${reset.by}` } : {}), sections: [] }];
    }
        case "ishiki.delivery": {
      const delivery = data as IshikiDelivery;
      const items = delivery.items.map((item) => `${item.url}: ${item.outcome}${item.decision ? ` (${item.decision})` : ""}`);
      return [{ kind: "delivery", title: `attachments in step ${delivery.stepNumber}`, summary: items.join("; "), sections: [] }];
    }
    default:
      return [{ kind: "other", title: type, sections: [["data", show(data)]] }];
  }
}

interface Usage {
  inputTokens?: number | { total?: number };
  outputTokens?: number | { total?: number };
  totalTokens?: number;
}

/** `in 120 / out 30 tokens`, from the SDK's usage shape (numbers, or V4 totals). */
export function describeUsage(usage: Usage | undefined): string | undefined {
  if (usage === undefined) return undefined;
  const count = (value: Usage["inputTokens"]) => (typeof value === "number" ? value : value?.total);
  const input = count(usage.inputTokens);
  const output = count(usage.outputTokens);
  if (input === undefined && output === undefined) return usage.totalTokens === undefined ? undefined : `${usage.totalTokens} tokens`;
  return `in ${input ?? "?"} / out ${output ?? "?"} tokens`;
}

function eventDraft(event: { type: string; error?: { name: string; message: string }; reason?: string; steps?: number; totalUsage?: Usage }): RowDraft {
  switch (event.type) {
    case "turn.start":
      return { kind: "turn.start", title: "turn started", sections: [] };
    case "turn.done": {
      const usage = describeUsage(event.totalUsage);
      return { kind: "turn.done", title: "turn done", summary: [`${event.steps ?? "?"} steps`, usage].filter(Boolean).join(", "), sections: [] };
    }
    case "turn.failed": {
      const error = event.error ? `${event.error.name}: ${event.error.message}` : "unknown error";
      return { kind: "turn.failed", title: "turn failed", summary: error, error, sections: event.error ? [["error", show(event.error)]] : [] };
    }
    case "turn.aborted":
      return { kind: "turn.aborted", title: "turn aborted", ...(event.reason ? { summary: event.reason } : {}), sections: [] };
    default:
      return { kind: "other", title: event.type, sections: [["event", show(event)]] };
  }
}

function messageDrafts(message: AgentMessage): RowDraft[] {
  switch (message.role) {
    case "custom":
      return [customDraft(message.type, message.data)];
    case "user":
      return [{ kind: "message.in", title: "user message", sections: [["content", textOf(message.content)]] }];
    case "system":
      return [{ kind: "other", title: "system message", sections: [["content", textOf(message.content)]] }];
    case "assistant":
      return assistantDrafts(message);
    case "tool":
      return message.content.flatMap((part): RowDraft[] => {
        if (part.type !== "tool-result") return [];
        const output = part.output as { type: string; value?: unknown; reason?: string };
        const failed = output.type === "error-text" || output.type === "error-json" || output.type === "execution-denied";
        const text = show(output.value ?? output.reason ?? output);
        return [{
          kind: "tool.result",
          title: `${part.toolName} result`,
          callId: part.toolCallId,
          ...(failed ? { error: text.slice(0, 300) } : {}),
          sections: [[failed ? "error" : part.toolName === "codemode" ? "return value" : "output", text]],
        }];
      });
  }
}

function assistantDrafts(message: Extract<AgentMessage, { role: "assistant" }>): RowDraft[] {
  const parts = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
  const text = parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
  const reasoning = parts.flatMap((part) => (part.type === "reasoning" ? [part.text] : [])).join("");
  const calls = parts.flatMap((part) => (part.type === "tool-call" ? [part] : []));
  const summary = [message.model, describeUsage(message.usage as Usage | undefined), calls.length > 0 ? `calls ${calls.map((call) => call.toolName).join(", ")}` : undefined, message.finishReason ? `finish: ${message.finishReason}` : undefined];
  const sections: Array<[string, string]> = [];
  if (reasoning) sections.push(["reasoning", reasoning]);
  if (text) sections.push(["text", text]);
  const model: RowDraft = { kind: "model", title: "model call", summary: summary.filter(Boolean).join(" · "), sections };
  return [model, ...calls.map((call) => toolDraft(call.toolName, call.toolCallId, call.input))];
}

function toolDraft(toolName: string, callId: string, input: unknown): RowDraft {
  if (toolName === "codemode") {
    const program = (input as { js?: unknown } | null)?.js;
    return { kind: "codemode", title: "codemode program", callId, sections: [["program", typeof program === "string" ? program : show(input)]] };
  }
  if (toolName === "send_message") {
    const messages = (input as { messages?: unknown } | null)?.messages;
    const said = Array.isArray(messages) ? messages.map((item) => (typeof item === "string" ? item : show(item))).join("\n") : show(input);
    return { kind: "message.out", title: "send_message", callId, summary: said.split("\n")[0]?.slice(0, 200), sections: [["messages", said]] };
  }
  return { kind: "tool", title: toolName, callId, sections: [["input", show(input)]] };
}

function customDraft(type: string, data: unknown): RowDraft {
  switch (type) {
    case "ishiki.message.created": {
      const created = data as IshikiMessageCreated;
      const where = `${created.platform}:${created.selfId}/${created.channelId}`;
      return { kind: "message.in", title: `${created.user.name} (${created.user.id})`, summary: `${where} #${created.messageId}`, sections: [["content", created.content]] };
    }
    case "ishiki.message.deleted": {
      const deleted = data as IshikiMessageDeleted;
      return { kind: "message.deleted", title: "message deleted", summary: `#${deleted.messageId}${deleted.operatorId ? ` by ${deleted.operatorId}` : ""}`, sections: [] };
    }
    case "ishiki.attachment": {
      const attachment = data as IshikiAttachment;
      const from = attachment.source === "tool" ? `from ${attachment.toolName}` : `from message #${attachment.messageId}`;
      const items = attachment.items.map((item) => `${item.url} ${item.mediaType} ${item.size} B, lifetime ${item.lifetime}${item.immutable ? ", immutable" : ""}`);
      return { kind: "attachment", title: `attachments ${from}`, summary: attachment.items.map((item) => `${item.mediaType} (${item.lifetime})`).join(", "), sections: [["items", items.join("\n")]] };
    }
    case "ishiki.tools.catalog": {
      const catalog = data as IshikiToolsCatalog;
      const change = [catalog.added.length > 0 ? `+${catalog.added.map((tool) => tool.name).join(", +")}` : "", catalog.removed.length > 0 ? `-${catalog.removed.join(", -")}` : ""].filter(Boolean).join(" ");
      return { kind: "catalog", title: `tool catalog ${catalog.kind} (${catalog.mode})`, summary: change || `${catalog.visible.length} tools visible`, sections: [["text", catalog.text]] };
    }
    default:
      return { kind: "other" satisfies TimelineKind, title: type, sections: [["data", show(data)]] };
  }
}

/** User content as text: text parts verbatim, other parts as their JSON. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return show(content);
  return content.map((part: { type?: string; text?: string }) => (part.type === "text" && typeof part.text === "string" ? part.text : show(part))).join("\n");
}

function show(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
