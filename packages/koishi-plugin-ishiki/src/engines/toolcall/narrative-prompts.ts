import type { LanguageModelV4CallOptions, LanguageModelV4FunctionTool, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { NARRATIVE_MARKER } from "../shared/narrative-marker.js";

/** The three decisions a narration ends with (spec 06 EN-42). */
export type NarrativeDecision = "reply" | "act" | "done";

const NARRATOR = [
  "You are the Narrator of an ongoing story: a chat in which you, the bot, take part.",
  `The user message that starts with ${NARRATIVE_MARKER} tells the scene, the cast, the story so far and the latest events.`,
  'Continue the story in a few sentences of prose from "you", the bot: what you notice, what you make of it and what you decide to do now.',
  "Do not write the chat message itself; another writer does that. Follow the brief below for who you are and how you behave.",
  "End with exactly one last line:",
  "DECISION: reply  (you answer in the chat now)",
  "DECISION: act  (you use tools first, e.g. to look something up, to wait, or to end your turn with finish)",
  "DECISION: done  (nothing needs an answer from you now; you stay silent)",
].join("\n");

const REPLYER = [
  "You speak as the bot in the chat told by the story below, following the brief for who you are.",
  "Write only the message you send now, as you would type it in the chat: no narration, no stage directions, no name prefix, no surrounding quotes.",
].join("\n");

const DECODER = [
  "You are the Action Decoder of a chat bot. The narration below says what the bot decided to do; carry it out now with tool calls and exact arguments.",
  "Call only what the narration asks for, and write no prose.",
].join("\n");

/** The narrator's call: the story, the tools it may decide to use (named, not callable) and the decision rule. */
export function narratorPrompt(prompt: LanguageModelV4Prompt, tools: readonly LanguageModelV4FunctionTool[]): LanguageModelV4Prompt {
  const catalog = tools.length === 0 ? "You have no tools." : `Tools you can use:\n${tools.map((tool) => `- ${tool.name}: ${firstLine(tool.description)}`).join("\n")}`;
  return withRole(prompt, `${NARRATOR}\n\n${catalog}`, "Continue the story now and end with the DECISION line.");
}

/** The replyer's call: the story and the narration; it answers with the message text only. */
export function replyerPrompt(prompt: LanguageModelV4Prompt, narration: string, replyStyle: string): LanguageModelV4Prompt {
  const style = replyStyle.trim() === "" ? "" : `\n\nReply style: ${replyStyle.trim()}`;
  return withRole(prompt, `${REPLYER}${style}`, `The narrator tells this moment:\n${narration}\n\nWrite the message you send now.`);
}

/** The decoder's call: the story and the narration; the real tools go with it natively. */
export function decoderPrompt(prompt: LanguageModelV4Prompt, narration: string, task: string): LanguageModelV4Prompt {
  return withRole(prompt, DECODER, `The narrator tells this moment:\n${narration}\n\n${task}`);
}

/** The function tools of a call (provider tools cannot be named to the narrator). */
export function functionTools(options: LanguageModelV4CallOptions): LanguageModelV4FunctionTool[] {
  return (options.tools ?? []).filter((tool): tool is LanguageModelV4FunctionTool => tool.type === "function");
}

/**
 * The last `DECISION:` line of a narration and the narration without it; a narration without one decides
 * nothing (undefined), which the caller treats as `done`.
 */
export function parseNarration(text: string): { narration: string; decision: NarrativeDecision | undefined } {
  const pattern = /^[ \t>*_`]*DECISION\s*[:：]\s*\**\s*(reply|act|done)\b.*$/gim;
  const matches = [...text.matchAll(pattern)];
  const last = matches.at(-1);
  const narration = text.replace(pattern, "").trim();
  return { narration, decision: last === undefined ? undefined : (last[1].toLowerCase() as NarrativeDecision) };
}

/** The role text first, then the runtime's own system text as the brief, the conversation, and the task. */
function withRole(prompt: LanguageModelV4Prompt, role: string, task: string): LanguageModelV4Prompt {
  const brief = prompt.filter((message) => message.role === "system").map((message) => message.content).join("\n\n");
  const rest = prompt.filter((message) => message.role !== "system");
  const system = brief.trim() === "" ? role : `${role}\n\nThe bot's brief:\n${brief}`;
  return [{ role: "system", content: system }, ...rest, { role: "user", content: [{ type: "text", text: task }] }];
}

function firstLine(text: string | undefined): string {
  return (text ?? "").split("\n")[0].trim();
}
