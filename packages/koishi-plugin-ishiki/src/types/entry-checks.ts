// The read-time checks of Ishiki's custom messages and entries (spec 01 AG-7): a stored one whose data lacks what
// the engines read is skipped and reported instead of failing every later turn. Plain field tests rather than zod:
// they run once per stored fact at every runtime start (the SDK's zod message schema costs ~35 µs per message on these machines).
import type { DataCheck, EntryChecks } from "@yesimagent/core";

type Field = "string" | "string?" | "number" | "boolean" | readonly string[] | DataCheck;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** An object with these fields (extra keys kept); `T?` may be absent, a list is the allowed values. */
function shape(fields: Record<string, Field>): DataCheck {
  // Compiled once: each field becomes one closure, so a check is a plain loop over them.
  const tests = Object.entries(fields).map(([name, field]): ((data: Record<string, unknown>) => string | undefined) => {
    const check = compile(field);
    return (data) => {
      const problem = check(data[name]);
      return problem === undefined ? undefined : `${name} ${problem}`;
    };
  });
  return (data) => {
    if (!isObject(data)) return "data is not an object";
    for (const test of tests) {
      const problem = test(data);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

function compile(field: Field): DataCheck {
  if (typeof field === "function") return field;
  if (Array.isArray(field)) {
    const allowed = new Set(field);
    return (value) => (allowed.has(value as string) ? undefined : `is not one of ${field.join(", ")}`);
  }
  if (field === "string?") return (value) => (value === undefined || typeof value === "string" ? undefined : "is not a string");
  return (value) => (typeof value === field ? undefined : `is not a ${field}`);
}

function listOf(item: DataCheck | "string"): DataCheck {
  return (value) => {
    if (!Array.isArray(value)) return "is not a list";
    for (const [index, element] of value.entries()) {
      const problem = item === "string" ? (typeof element === "string" ? undefined : "is not a string") : item(element);
      if (problem !== undefined) return `[${index}] ${problem}`;
    }
    return undefined;
  };
}

const optional = (check: DataCheck): DataCheck => (value) => (value === undefined ? undefined : check(value));

const user = shape({ id: "string", name: "string" });
const attachmentItem = shape({ url: "string", mediaType: "string", size: "number", lifetime: ["once", "recent", "retain"], immutable: "boolean" });

const attachment: DataCheck = (data) => {
  if (!isObject(data)) return "data is not an object";
  if (data.source === "tool") return shape({ toolName: "string", toolCallId: "string", items: listOf(attachmentItem) })(data);
  if (data.source === "platform") return shape({ platform: "string", selfId: "string", channelId: "string", messageId: "string", items: listOf(attachmentItem) })(data);
  return "source is not tool or platform";
};

/** Checks for the four Ishiki custom messages (AG-4) and the custom entries (AG-2, issue 22), shared by every runtime. */
export const ishikiEntryChecks: EntryChecks = {
  messages: {
    "ishiki.message.created": shape({
      timestamp: "number",
      platform: "string",
      selfId: "string",
      channelId: "string",
      guildId: "string?",
      isDirect: "boolean",
      messageId: "string",
      content: "string",
      user,
      quote: optional(shape({ id: "string", content: "string", user: optional(user) })),
    }),
    "ishiki.message.deleted": shape({ timestamp: "number", platform: "string", selfId: "string", channelId: "string", messageId: "string", userId: "string?", operatorId: "string?" }),
    "ishiki.attachment": attachment,
    "ishiki.tools.catalog": shape({
      version: (value) => (value === 1 ? undefined : "is not 1"),
      kind: ["baseline", "delta"],
      mode: ["codemode", "direct"],
      added: listOf(shape({ name: "string", description: "string", signature: "string?" })),
      removed: listOf("string"),
      visible: listOf("string"),
      text: "string",
    }),
  },
  entries: {
    "ishiki.compact": shape({ summary: "string", lastEntryId: "string" }),
    "ishiki.usage": shape({ purpose: "string", model: "string", usage: (value) => (isObject(value) ? undefined : "is not an object") }),
    "ishiki.reset": shape({ by: "string?" }),
    "ishiki.delivery": shape({ turnId: "string", stepNumber: "number", items: listOf(shape({ key: "string", url: "string", outcome: ["shown", "terminal", "released"] })) }),
  },
};
