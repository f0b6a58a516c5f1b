import { Schema } from "koishi";
import { blockText, customEngineVariant, engineVariant } from "./engine-variant.js";

// The built-in toolcall variants for the console form (spec 06 EN-38 .. EN-43): only `narrative` has settings;
// the engines validate their blocks themselves at activation (EN-5).

const narrative = Schema.object({
  narrator: Schema.string(),
  replyer: Schema.string(),
  decoder: Schema.string(),
  maxNarrationTokens: Schema.natural().min(1).default(512),
  replyStyle: Schema.string().role("textarea").default(""),
}).i18n(
  blockText(
    { "zh-CN": "narrative 的设置（需要 context.engine: narrative）。", "en-US": "Settings of narrative (needs context.engine: narrative)." },
    {
      narrator: "旁白模型（续写故事并决定 reply / act / done）；留空使用 profile 的模型。",
      replyer: "回复模型（写出角色的回复）；留空使用 profile 的模型。",
      decoder: "动作解码模型（把旁白变成真实的工具调用）；留空使用 profile 的模型。",
      maxNarrationTokens: "每次旁白的 token 上限。",
      replyStyle: "回复风格说明。",
    },
    {
      narrator: "Narrator model (continues the story and decides reply / act / done); empty: the profile's model.",
      replyer: "Replyer model (writes the in-character reply); empty: the profile's model.",
      decoder: "Action decoder model (turns narration into real tool calls); empty: the profile's model.",
      maxNarrationTokens: "Token limit of one narration.",
      replyStyle: "Reply style guidance.",
    },
  ),
);

/** `toolcall` of a profile: a union on the engine name (EN-3), `native` when unset. */
export const ToolcallEngineForm = Schema.union([
  engineVariant("native", { "zh-CN": "native（默认：模型原生工具调用）", "en-US": "native (default: the model's own tool calling)" }, undefined, true),
  engineVariant("hermes", { "zh-CN": "hermes（文本协议，<tool_call> JSON）", "en-US": "hermes (text protocol, <tool_call> JSON)" }),
  engineVariant("morph-xml", { "zh-CN": "morph-xml（文本协议，XML 标签）", "en-US": "morph-xml (text protocol, XML tags)" }),
  engineVariant("qwen3coder", { "zh-CN": "qwen3coder（文本协议，Qwen3-Coder 格式）", "en-US": "qwen3coder (text protocol, Qwen3-Coder format)" }),
  engineVariant("yaml-xml", { "zh-CN": "yaml-xml（文本协议，XML 包裹 YAML）", "en-US": "yaml-xml (text protocol, YAML inside XML)" }),
  engineVariant("v3", { "zh-CN": "v3（JSON 动作块协议）", "en-US": "v3 (JSON action-block protocol)" }),
  engineVariant("narrative", { "zh-CN": "narrative（旁白、回复、动作解码）", "en-US": "narrative (narrator, replyer, action decoder)" }, narrative),
  customEngineVariant({ "zh-CN": "工具调用", "en-US": "toolcall" }),
]).default({ engine: "native" });
