import { Schema } from "koishi";
import { ModelPricesSchema } from "./operating-schema.js";

// The console form of the `models` key (spec 02 GW-4 .. GW-17). No field here has a default the gateway would
// read differently from an absent key (an absent `models` list serves any id, GW-9): what the form shows as a
// placeholder is what the gateway does. The gateway validates every entry again when it builds it (GW-25).

//
// No string here carries a pattern: the console picks a union's variant by validating the value against it on
// every keystroke, so a half-typed URL would not fit any variant and the provider's fields would vanish while
// being typed. Required fields are marked at the field instead; the gateway names a bad value by its path.

const modality = Schema.union(["text", "image", "audio", "video", "pdf"]);
const effort = Schema.union(["none", "minimal", "low", "medium", "high", "xhigh", "max"]);

// A function, not a constant: `i18n` writes the description into the meta object it shares with the Schema it
// copies, so one Schema described by two parents would carry the last description in both places.
const timeouts = () =>
  Schema.object({
    firstChunkMs: Schema.natural(),
    idleMs: Schema.natural(),
    responseMs: Schema.natural(),
  }).i18n({
    "zh-CN": {
      $description: "单次模型调用的时限（毫秒），0 表示不限；未设置的取默认值 90 秒、30 秒、180 秒。",
      firstChunkMs: "流式回答的第一个片段须在调用开始后多久内到达。",
      idleMs: "流式回答相邻两个片段之间的最长间隔。",
      responseMs: "非流式调用须在多久内完成。",
    },
    "en-US": {
      $description: "Deadlines of one model call in ms, 0 turns one off; unset keys take 90 s, 30 s and 180 s.",
      firstChunkMs: "A stream's first part must arrive within this of the call's start.",
      idleMs: "Longest gap between two parts of a stream.",
      responseMs: "A call without a stream must answer within this.",
    },
  });

/** One declared model and its capabilities (GW-9 .. GW-11). */
const ModelEntry = Schema.object({
  id: Schema.string().required(),
  type: Schema.union(["language", "embedding", "image", "speech", "transcription", "reranking"]),
  name: Schema.string(),
  input: Schema.array(modality).role("checkbox"),
  toolCall: Schema.boolean(),
  reasoning: Schema.boolean(),
  thinking: Schema.object({
    mode: Schema.string(),
    efforts: Schema.array(effort).role("checkbox"),
  }).i18n({
    "zh-CN": { $description: "思考设置。", mode: "思考方式（如 effort）。", efforts: "可用的 `:level` 后缀；声明后其他级别在构建时被拒绝。" },
    "en-US": { $description: "Thinking settings.", mode: "Thinking mode (e.g. effort).", efforts: "The only `:level` suffixes accepted; other levels are rejected when the model is built." },
  }),
  contextWindow: Schema.natural().min(1),
  maxTokens: Schema.natural().min(1),
  dimensions: Schema.natural().min(1),
  timeouts: timeouts(),
  prices: ModelPricesSchema,
}).i18n({
  "zh-CN": {
    id: "模型 id，即引用 `提供方:模型` 中的模型部分。",
    type: "模型种类，默认 language（对话模型）。",
    name: "显示名称。",
    input: "对话模型接受的输入，默认只有 text。能力只来自这里的声明，从不根据模型名推断。",
    toolCall: "支持原生工具调用。",
    reasoning: "是推理模型。",
    contextWindow: "上下文窗口（token）。",
    maxTokens: "单次输出的 token 上限。",
    dimensions: "嵌入模型的向量维度。",
  },
  "en-US": {
    id: "Model id, the model part of a `provider:model` reference.",
    type: "Model kind; language (chat model) when unset.",
    name: "Display name.",
    input: "What a language model accepts; text only when unset. Capabilities come only from these declarations, never from the model's name.",
    toolCall: "Supports native tool calls.",
    reasoning: "Is a reasoning model.",
    contextWindow: "Context window in tokens.",
    maxTokens: "Output token limit of one call.",
    dimensions: "Vector size of an embedding model.",
  },
});

interface ApiText {
  zh: string;
  en: string;
  /** The key is required by this api (GW-7). */
  apiKey: boolean;
  /** The endpoint is required by this api (GW-5). */
  baseUrl: boolean;
}

/** The fields every api shares; the discriminator `api` comes first so the form reads top-down. */
function providerVariant(api: Schema<string>, text: ApiText, fallback: Record<string, string>): Schema {
  const baseUrl = Schema.string();
  const apiKey = Schema.string().role("secret");
  const fields: Schema = Schema.object({
    api,
    baseUrl: text.baseUrl ? baseUrl.required() : baseUrl,
    apiKey: text.apiKey ? apiKey.required() : apiKey,
    headers: Schema.dict(Schema.string()).role("table"),
    settings: Schema.dict(Schema.any()),
    timeouts: timeouts(),
    models: Schema.array(ModelEntry),
  });
  return fields
    .default(fallback)
    .i18n({
      "zh-CN": {
        $description: text.zh,
        api: "接口方言。",
        baseUrl: "接口地址（http(s) URL，或 `${环境变量}`）。",
        apiKey: "API 密钥，可写 `${环境变量}`；展开后的值不会写入日志。",
        headers: "附加的请求头；值中可用 `${环境变量}`。",
        settings: "原样传给 AI SDK 工厂函数的设置（如 includeUsage）；下面的显式字段优先。",
        timeouts: "此提供方所有对话模型的调用时限；模型自己的 timeouts 按键覆盖。",
        models: "声明的模型及其能力；省略时接受任何模型 id，但它们都没有声明的能力。",
      },
      "en-US": {
        $description: text.en,
        api: "API dialect.",
        baseUrl: "Endpoint (an http(s) URL, or `${ENV}`).",
        apiKey: "API key, `${ENV}` allowed; the expanded value is never logged.",
        headers: "Extra request headers; values may contain `${ENV}`.",
        settings: "Settings spread into the AI SDK factory (e.g. includeUsage); the explicit fields above win.",
        timeouts: "Deadlines of every language model call to this provider; a model's own timeouts win key by key.",
        models: "Declared models and their capabilities; when omitted any model id is served, none with declared capabilities.",
      },
    });
}

const BUILT_IN_APIS: Record<string, ApiText> = {
  "openai-completions": {
    zh: "openai-completions（OpenAI 兼容：中转、本地服务器）",
    en: "openai-completions (OpenAI-compatible: relays, local servers)",
    apiKey: false,
    baseUrl: true,
  },
  "openai-responses": { zh: "openai-responses（OpenAI Responses API）", en: "openai-responses (OpenAI Responses API)", apiKey: true, baseUrl: false },
  "anthropic-messages": {
    zh: "anthropic-messages（Anthropic；settings.authToken 改用 Bearer 头）",
    en: "anthropic-messages (Anthropic; settings.authToken switches to Bearer)",
    apiKey: false,
    baseUrl: false,
  },
  "google-generative-ai": { zh: "google-generative-ai（Gemini）", en: "google-generative-ai (Gemini)", apiKey: true, baseUrl: false },
};

/**
 * One provider (GW-4): a union on `api`, one variant per built-in dialect with that dialect's required
 * fields, then one for an api another plugin registered with `defineApi` (GW-8), named in a text field.
 */
const providerVariants = [
  ...Object.entries(BUILT_IN_APIS).map(([api, text]) => providerVariant(Schema.const(api).required(), text, { api })),
  // Its placeholder `api: ""` makes the console keep this variant selected until a name is typed.
  providerVariant(
    Schema.string().required(),
    { zh: "其他（插件用 defineApi 注册的接口）", en: "Other (an api registered with defineApi)", apiKey: false, baseUrl: false },
    { api: "" },
  ),
];

export const ProviderSchema = Schema.union(providerVariants);

/** One model group (GW-14 .. GW-17). */
export const GroupSchema = Schema.object({
  strategy: Schema.union(["failover", "round-robin", "random"]).default("failover"),
  models: Schema.array(Schema.string()).role("table").required(),
  circuitBreaker: Schema.object({
    failureThreshold: Schema.number(),
    cooldownSeconds: Schema.number(),
  }).i18n({
    "zh-CN": { $description: "熔断器：每个引用各有一个。", failureThreshold: "连续失败多少次后熔断（默认 3，至少 1）。", cooldownSeconds: "最近一次失败后多少秒转为半开（默认 60）。" },
    "en-US": { $description: "Circuit breaker, one per reference.", failureThreshold: "Consecutive failures that open the breaker (default 3, at least 1).", cooldownSeconds: "Seconds after the latest failure before it turns half-open (default 60)." },
  }),
}).i18n({
  "zh-CN": {
    strategy: "failover：按声明顺序；round-robin：每次调用轮换一位；random：每次随机。",
    models: "成员：`提供方:模型[:级别]` 引用，必须是对话模型。",
  },
  "en-US": {
    strategy: "failover: declared order; round-robin: rotate one further per call; random: shuffle per call.",
    models: "Members: `provider:model[:level]` references to language models.",
  },
});

/**
 * The `models` key (GW-1). A provider or group the form cannot read keeps its place through the hidden `any`:
 * the gateway then reports it by name and only the profiles using it fail (spec 08 KP-38).
 */
export const ModelsSchema = Schema.object({
  providers: Schema.dict(Schema.union([...providerVariants, Schema.any().hidden()])).default({}),
  groups: Schema.dict(Schema.union([GroupSchema, Schema.any().hidden()])).default({}),
}).i18n({
  "zh-CN": {
    providers: "模型提供方，键为提供方 id（不能含 `:`），引用写作 `提供方:模型`。",
    groups: "模型组，键为组名（不能含 `:`）；profile 的 model 可直接写组名。",
  },
  "en-US": {
    providers: "Model providers keyed by id (no `:`); references read `provider:model`.",
    groups: "Model groups keyed by name (no `:`); a profile's model may name a group.",
  },
});
