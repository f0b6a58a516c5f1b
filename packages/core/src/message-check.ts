// The shape checks of stored messages (AG-3), mirroring the AI SDK's model-message schemas for what JSON can
// hold. Written by hand because the SDK's zod `modelMessageSchema` costs ~35 µs per message here: 3.4 s for a
// 100,000-entry file, read at every runtime start.

type Check = (value: Record<string, unknown>) => string | undefined;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === "string";
/** Inline data (a base64 or URL string) or a tagged / provider-reference object. */
const isData = (value: unknown): boolean => isString(value) || isObject(value);

const field = (name: string, test: (value: unknown) => boolean, expected: string): Check => (value) =>
  test(value[name]) ? undefined : `${name} is not ${expected}`;
const optional = (name: string, test: (value: unknown) => boolean, expected: string): Check => (value) =>
  value[name] === undefined || test(value[name]) ? undefined : `${name} is not ${expected}`;

const text = field("text", isString, "a string");
const mediaType = field("mediaType", isString, "a string");
const toolCallId = field("toolCallId", isString, "a string");
const toolName = field("toolName", isString, "a string");

const OUTPUT_TYPES = new Set(["text", "json", "execution-denied", "error-text", "error-json", "content"]);
const output: Check = (part) => {
  const value = part.output;
  if (!isObject(value) || !isString(value.type) || !OUTPUT_TYPES.has(value.type)) return "output is not a tool output";
  if ((value.type === "text" || value.type === "error-text") && !isString(value.value)) return "output value is not a string";
  if (value.type === "content" && !(Array.isArray(value.value) && value.value.every((item) => isObject(item) && isString(item.type)))) {
    return "output content is not a list of typed parts";
  }
  return undefined;
};

const PARTS: Record<string, Check[]> = {
  text: [text],
  reasoning: [text],
  image: [field("image", isData, "image data")],
  file: [field("data", isData, "file data"), mediaType],
  "reasoning-file": [field("data", isData, "file data"), mediaType],
  custom: [field("kind", isString, "a string")],
  "tool-call": [toolCallId, toolName],
  "tool-result": [toolCallId, toolName, output],
  "tool-approval-request": [field("approvalId", isString, "a string"), toolCallId],
  "tool-approval-response": [field("approvalId", isString, "a string"), field("approved", (value) => typeof value === "boolean", "a boolean")],
};

/** Part types each role accepts, as the SDK's prompt validation does; `string` marks text content. */
const ROLES: Record<string, { string: boolean; parts: ReadonlySet<string> | undefined }> = {
  system: { string: true, parts: undefined },
  user: { string: true, parts: new Set(["text", "image", "file"]) },
  assistant: { string: true, parts: new Set(["text", "custom", "file", "reasoning", "reasoning-file", "tool-call", "tool-result", "tool-approval-request"]) },
  tool: { string: false, parts: new Set(["tool-result", "tool-approval-response"]) },
};

const providerOptions = optional("providerOptions", (value) => isObject(value) && Object.values(value).every(isObject), "an object of objects");

/**
 * Why `data` cannot be a stored message, or undefined when it can. A custom message's `data` is checked by
 * `custom(type, data)` when given. Only shapes the SDK or the projection would reject count: unknown extra keys
 * are kept.
 */
export function checkMessage(data: unknown, custom?: (type: string, data: unknown) => string | undefined): string | undefined {
  if (!isObject(data)) return "message is not an object";
  if (!isString(data.id)) return "message id is not a string";
  if (typeof data.timestamp !== "number") return "message timestamp is not a number";
  const role = data.role;
  if (role === "custom") {
    if (!isString(data.type)) return "custom message type is not a string";
    return custom?.(data.type, data.data);
  }
  if (!isString(role) || !Object.hasOwn(ROLES, role)) return `unknown message role ${JSON.stringify(role)}`;
  const accepted = ROLES[role];
  const problem = providerOptions(data);
  if (problem !== undefined) return `${role} message ${problem}`;
  const content = data.content;
  if (isString(content) && accepted.string) return undefined;
  if (!Array.isArray(content) || accepted.parts === undefined) return `${role} message content is not ${accepted.parts ? "a string or a list of parts" : "a string"}`;
  for (const [index, part] of content.entries()) {
    if (!isObject(part) || !isString(part.type) || !accepted.parts.has(part.type)) return `${role} message part ${index} is not a ${role} part`;
    for (const check of PARTS[part.type]) {
      const partProblem = check(part) ?? providerOptions(part);
      if (partProblem !== undefined) return `${role} message part ${index} (${part.type}): ${partProblem}`;
    }
  }
  return undefined;
}
