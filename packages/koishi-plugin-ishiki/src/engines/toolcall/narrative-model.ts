import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4GenerateResult } from "@ai-sdk/provider";
import { hasNarrativeMarker, MISSING_NARRATIVE_MARKER } from "../shared/narrative-marker.js";
import { decoderPrompt, functionTools, narratorPrompt, parseNarration, replyerPrompt } from "./narrative-prompts.js";
import { replay, runRole, sumUsage, type RoleOutput } from "./narrative-stream.js";

/** The three roles' models, resolved on every call so that gateway changes apply. */
export interface NarrativeRoles {
  narrator(): LanguageModelV4;
  replyer(): LanguageModelV4;
  decoder(): LanguageModelV4;
}

export interface NarrativeModelOptions {
  roles: NarrativeRoles;
  maxNarrationTokens: number;
  replyStyle: string;
  /** Cross mode: a reply needs a target, so it goes through the decoder's `send_message` call. */
  cross: boolean;
  logger: { debug(format: string, ...args: unknown[]): void; warn(format: string, ...args: unknown[]): void };
}

type ToolCall = Extract<LanguageModelV4Content, { type: "tool-call" }>;

/**
 * The model a `narrative` toolcall instance hands the agent (spec 06 EN-42). Each call runs the Narrator on the
 * story, then by its decision the Replyer (its text becomes one `send_message` call), the Action Decoder (the
 * real tools, called natively) or nothing. The result holds the narration as a `reasoning` part and the calls;
 * usage is summed over the roles. `doStream` replays that result as a stream.
 */
export function createNarrativeModel(base: LanguageModelV4, options: NarrativeModelOptions): LanguageModelV4 {
  const generate = async (call: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> => {
    if (!hasNarrativeMarker(call.prompt)) throw new Error(MISSING_NARRATIVE_MARKER);
    // Output-shaping settings belong to the agent's call; each role sets its own.
    const { prompt, tools: _tools, toolChoice: _choice, responseFormat: _format, maxOutputTokens, stopSequences: _stop, includeRawChunks: _raw, ...shared } = call;
    const tools = functionTools(call);
    const outputs: RoleOutput[] = [];
    const role = async (name: keyof NarrativeRoles, settings: Partial<LanguageModelV4CallOptions> & Pick<LanguageModelV4CallOptions, "prompt">): Promise<RoleOutput> => {
      // The role names its call's purpose for usage records (issue 22); providers read only their own namespace.
      const providerOptions = { ...shared.providerOptions, ishiki: { purpose: name } };
      const output = await runRole(options.roles[name](), { ...shared, ...settings, providerOptions });
      outputs.push(output);
      return output;
    };

    const told = await role("narrator", { prompt: narratorPrompt(prompt, tools), maxOutputTokens: options.maxNarrationTokens });
    const parsed = parseNarration(told.text);
    if (parsed.decision === undefined) options.logger.warn("narrative: the narrator gave no DECISION line; treating it as done");
    const { narration } = parsed;
    const decision = parsed.decision ?? "done";
    options.logger.debug("narrative: decision %s", decision);

    const calls: ToolCall[] = [];
    const decode = async (task: string, choice: LanguageModelV4CallOptions["toolChoice"], offered = tools): Promise<void> => {
      const output = await role("decoder", { prompt: decoderPrompt(prompt, narration, task), tools: offered, toolChoice: choice, maxOutputTokens });
      if (output.calls.length === 0) options.logger.debug("narrative: the decoder called no tool");
      calls.push(...output.calls);
    };
    const sender = tools.find((tool) => tool.name === "send_message");
    if (decision === "reply" && sender !== undefined && !options.cross) {
      const written = await role("replyer", { prompt: replyerPrompt(prompt, narration, options.replyStyle), maxOutputTokens });
      const text = unquote(written.text.trim());
      if (text !== "") calls.push({ type: "tool-call", toolCallId: `narrative-${crypto.randomUUID()}`, toolName: "send_message", input: JSON.stringify({ messages: [text] }) });
    } else if (decision === "reply") {
      await decode("Send your reply now with send_message.", sender === undefined ? { type: "required" } : { type: "tool", toolName: sender.name }, sender === undefined ? tools : [sender]);
    } else if (decision === "act") {
      await decode("Call the tools now.", { type: "required" });
    }

    const content: LanguageModelV4Content[] = narration === "" ? [] : [{ type: "reasoning", text: narration }];
    content.push(...calls);
    return {
      content,
      finishReason: calls.length > 0 ? { unified: "tool-calls", raw: decision } : { unified: "stop", raw: decision },
      usage: sumUsage(outputs.map((output) => output.usage)),
      warnings: outputs.flatMap((output) => output.warnings),
    };
  };

  return {
    specificationVersion: "v4",
    provider: "ishiki.narrative",
    modelId: base.modelId,
    supportedUrls: base.supportedUrls,
    doGenerate: generate,
    doStream: async (call) => ({ stream: replay(await generate(call)) }),
  };
}

/** The replyer was told not to quote its message; models still mimic the story's `You said: "…"` lines. */
function unquote(text: string): string {
  const match = /^(?:you said:\s*)?["“](.*)["”]$/is.exec(text);
  return match === null ? text : match[1].trim();
}
