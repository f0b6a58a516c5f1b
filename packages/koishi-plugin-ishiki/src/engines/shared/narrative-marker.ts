import type { LanguageModelV4Prompt } from "@ai-sdk/provider";

/**
 * The first line of the user message the `narrative` context engine renders (spec 06 EN-21); the `narrative`
 * toolcall engine looks for it (EN-42). Versioned so that a changed layout can be told apart.
 */
export const NARRATIVE_MARKER = "[[ishiki:narrative v1]]";

/** The error the `narrative` toolcall engine throws when no message starts with the marker (EN-43). */
export const MISSING_NARRATIVE_MARKER = `narrative toolcall engine requires context.engine: narrative (marker ${NARRATIVE_MARKER} not found)`;

/** Whether a user message of the prompt starts with the marker; chat text never does, it is quoted in the story. */
export function hasNarrativeMarker(prompt: LanguageModelV4Prompt): boolean {
  return prompt.some((message) => message.role === "user" && message.content.some((part) => part.type === "text" && part.text.trimStart().startsWith(NARRATIVE_MARKER)));
}
