/**
 * The `<action>` / `<observation>` blocks of the v3 protocol (spec 06 EN-19, EN-41), shared by the v3 toolcall
 * engine (history of tool calls as text) and the v3 context engine (calls and results in the world state).
 * The shapes are structural so that both AI SDK model messages and provider prompts fit.
 */

/** A tool call: its tool, its input (parsed or the raw string of an invalid call). */
export interface V3Call {
  toolName: string;
  input: unknown;
}

/** One item of a `content` result: text, or media (anything with a media type). */
export type V3ContentItem = { type: "text"; text: string } | { type: string; mediaType?: string; data?: unknown; filename?: string };

/** A tool result's output, as the AI SDK and the V4 prompt carry it. */
export type V3Output =
  | { type: "text" | "error-text"; value: string }
  | { type: "json" | "error-json"; value: unknown }
  | { type: "execution-denied"; reason?: string }
  | { type: "content"; value: readonly V3ContentItem[] };

export interface V3Result {
  toolName: string;
  toolCallId: string;
  output: V3Output;
}

/** `<action>{"function": <name>, "params": <input>}</action>`: the JSON shape the model writes (EN-41). */
export function renderAction(call: V3Call): string {
  const params = typeof call.input === "string" ? parseOrKeep(call.input) : (call.input ?? {});
  return `<action>${JSON.stringify({ function: call.toolName, params })}</action>`;
}

/**
 * `<observation function id>` with `<status>success|error</status>` and `<result>`. Media items are written as
 * `[type size]`; `media` says where they went ("below" when the caller adds them as file parts).
 */
export function renderObservation(result: V3Result, media?: string): string {
  const { output } = result;
  const failed = output.type === "error-text" || output.type === "error-json" || output.type === "execution-denied";
  return [
    `<observation function="${result.toolName}" id="${result.toolCallId}">`,
    `<status>${failed ? "error" : "success"}</status>`,
    `<result>${resultText(output, media)}</result>`,
    "</observation>",
  ].join("\n");
}

/** `[image/png 2.4 KB]`, from whatever size the media's data tells. */
export function mediaMention(item: { mediaType?: string; type: string; data?: unknown; filename?: string }, where?: string): string {
  const type = item.mediaType ?? item.type;
  const size = byteSize(item.data);
  const parts = [type, ...(size === undefined ? [] : [formatBytes(size)]), ...(item.filename === undefined ? [] : [item.filename]), ...(where === undefined ? [] : [where])];
  return `[${parts.join(" ")}]`;
}

function resultText(output: V3Output, media: string | undefined): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return JSON.stringify(output.value);
    case "execution-denied":
      return `Execution denied${output.reason ? `: ${output.reason}` : "."}`;
    case "content":
      return output.value.map((item) => (item.type === "text" && "text" in item ? item.text : mediaMention(item, media))).join("\n");
  }
}

function parseOrKeep(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function byteSize(data: unknown): number | undefined {
  if (data instanceof Uint8Array) return data.byteLength;
  if (typeof data === "string") return Math.floor((data.length * 3) / 4);
  if (typeof data === "object" && data !== null && "type" in data) {
    const tagged = data as { type: string; data?: unknown };
    if (tagged.type === "data") return byteSize(tagged.data);
  }
  return undefined;
}

function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}
