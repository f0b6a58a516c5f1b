import type { LanguageModelV4FilePart, LanguageModelV4Prompt, LanguageModelV4ToolResultPart } from "@ai-sdk/provider";

type ToolResultOutput = LanguageModelV4ToolResultPart["output"];

/**
 * Text tool-call protocols carry results as text, which would lose media a tool result holds. This moves every
 * file part of a `content` result into a user message right after the tool message (a mention stays in the
 * result's text), so media still reach the model as file parts. Other messages are returned as they are.
 */
export function liftToolResultMedia(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt {
  if (!prompt.some((message) => message.role === "tool" && message.content.some((part) => part.type === "tool-result" && hasFiles(part.output)))) return prompt;
  const out: LanguageModelV4Prompt = [];
  for (const message of prompt) {
    if (message.role !== "tool") {
      out.push(message);
      continue;
    }
    const lifted: Array<{ type: "text"; text: string } | LanguageModelV4FilePart> = [];
    const content = message.content.map((part) => {
      if (part.type !== "tool-result" || !hasFiles(part.output)) return part;
      const files = part.output.value.filter((item) => item.type === "file");
      lifted.push({ type: "text", text: `Media returned by ${part.toolName} (call ${part.toolCallId}):` }, ...files.map(({ type, data, mediaType, filename }) => ({ type, data, mediaType, ...(filename === undefined ? {} : { filename }) })));
      const value = part.output.value.map((item) => (item.type === "file" ? { type: "text" as const, text: `[${item.mediaType}${item.filename === undefined ? "" : ` ${item.filename}`}: attached below]` } : item));
      return { ...part, output: { ...part.output, value } };
    });
    out.push({ ...message, content });
    if (lifted.length > 0) out.push({ role: "user", content: lifted });
  }
  return out;
}

function hasFiles(output: ToolResultOutput): output is Extract<ToolResultOutput, { type: "content" }> {
  return output.type === "content" && output.value.some((item) => item.type === "file");
}
