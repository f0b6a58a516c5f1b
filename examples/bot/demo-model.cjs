// The demo's model choice (spec 08 KP-41). With ISHIKI_BASE_URL and ISHIKI_MODEL it points the `bot` model group
// at that OpenAI-compatible endpoint; otherwise it registers a scripted model (api `demo`) that walks seed 000's
// journey (spec 00 §6) with whatever tools the runtime offers: `search({ query: "write_file" })`, then `codemode`
// running the seed's program (read notes.txt through workspace://, keep the TODO: lines, write tasks.txt with
// write_file, return only { count, url }), then `send_message` with the count and the URL, prefixed
// `[demo model]`, in Chinese when the user wrote Chinese and in English otherwise. The notes never reach it.
const { randomUUID } = require("node:crypto");

exports.name = "ishiki-demo-model";
exports.inject = ["ishiki"];

exports.apply = (ctx) => {
  const logger = ctx.logger("ishiki.demo");
  const gateway = ctx.ishiki.gateway;
  const baseUrl = process.env.ISHIKI_BASE_URL;
  const model = process.env.ISHIKI_MODEL;
  if (baseUrl && model) {
    const relay = { api: "openai-completions", baseUrl, models: [{ id: model }] };
    if (process.env.ISHIKI_API_KEY) relay.apiKey = process.env.ISHIKI_API_KEY;
    gateway.reconfigure({ providers: { relay }, groups: { bot: { models: [`relay:${model}`] } } });
    logger.info("using %s at %s", model, baseUrl);
    return;
  }
  if (baseUrl || model) logger.warn("%s is not set; falling back to the scripted [demo model]", baseUrl ? "ISHIKI_MODEL" : "ISHIKI_BASE_URL");
  ctx.on("dispose", gateway.defineApi("demo", () => provider));
  gateway.reconfigure({ providers: { demo: { api: "demo", models: [{ id: "scripted" }] } }, groups: { bot: { models: ["demo:scripted"] } } });
  logger.info("no ISHIKI_BASE_URL/ISHIKI_MODEL: using the scripted [demo model]");
};

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** Seed 000's program, word for word. */
const SEED_PROGRAM = `const source = await tools.read({
  url: "workspace:///home/workspace/notes.txt",
});
if (source.type !== "text") throw new Error("待办来源需要是文本文件");
const tasks = source.text.split("\\n").filter((line) => line.startsWith("TODO:"));
await tools.write_file({
  path: "/home/workspace/tasks.txt",
  content: tasks.join("\\n"),
});
return {
  count: tasks.length,
  url: "workspace:///home/workspace/tasks.txt",
};`;
exports.SEED_PROGRAM = SEED_PROGRAM;

const HAN = /[\u3400-\u9fff]/u;
/** User messages the kernel writes itself (catalogs, the text-reply note): not the user's language. */
const KERNEL_TEXT = /^(Code mode capability update|Tool catalog|\[ishiki\])/;

function textOf(content) {
  if (typeof content === "string") return content;
  return content.filter((part) => part.type === "text").map((part) => part.text).join("\n");
}

/** A tool result's value as JSON, whatever display the exit gave it. */
function resultValue(output) {
  if (output.type === "json") return output.value;
  const text = output.type === "text" || output.type === "error-text" ? output.value : output.type === "content" ? textOf(output.value) : undefined;
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * What this turn did so far: which tools returned, the value codemode returned, and whether the user wrote
 * Chinese. A user's message starts the work afresh; the kernel's own user messages (catalogs, notes) do not.
 */
function progress(prompt) {
  let done = new Set();
  let program;
  let chinese = false;
  for (const message of prompt) {
    if (message.role === "user") {
      const text = textOf(message.content);
      if (KERNEL_TEXT.test(text.trim())) continue;
      chinese = HAN.test(text);
      done = new Set();
      program = undefined;
    }
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      done.add(part.toolName);
      if (part.toolName === "codemode") program = resultValue(part.output);
    }
  }
  return { done, program, chinese };
}

function replyText({ program, chinese }) {
  if (program && typeof program.count === "number" && typeof program.url === "string") {
    return chinese
      ? `[demo model] 我在 /home/workspace/notes.txt 里找到 ${program.count} 条待办，已写入 ${program.url}。`
      : `[demo model] I found ${program.count} TODO lines in /home/workspace/notes.txt and wrote them to ${program.url}.`;
  }
  if (program !== undefined) {
    const detail = typeof program === "string" ? program : JSON.stringify(program);
    return chinese ? `[demo model] 程序没有返回 { count, url }：${detail}` : `[demo model] The program did not return { count, url }: ${detail}`;
  }
  return chinese
    ? "[demo model] 你好！我是脚本化的演示模型。设置 ISHIKI_BASE_URL 与 ISHIKI_MODEL 即可连接真实模型。"
    : "[demo model] Hello! I am the scripted demo model. Set ISHIKI_BASE_URL and ISHIKI_MODEL to talk to a real one.";
}

function nextCall(options) {
  const names = new Set((options.tools ?? []).map((tool) => tool.name));
  const state = progress(options.prompt);
  if (state.done.has("send_message")) return { name: "finish", input: {} };
  if (names.has("search") && !state.done.has("search")) return { name: "search", input: { query: "write_file" } };
  if (names.has("codemode") && !state.done.has("codemode")) return { name: "codemode", input: { js: SEED_PROGRAM } };
  return { name: "send_message", input: { messages: [replyText(state)] } };
}

const languageModel = {
  specificationVersion: "v4",
  provider: "demo",
  modelId: "scripted",
  supportedUrls: {},
  async doGenerate(options) {
    const call = nextCall(options);
    return {
      content: [{ type: "tool-call", toolCallId: randomUUID(), toolName: call.name, input: JSON.stringify(call.input) }],
      finishReason: { unified: "tool-calls", raw: "tool_calls" },
      usage,
      warnings: [],
    };
  },
  async doStream(options) {
    const call = nextCall(options);
    const parts = [
      { type: "stream-start", warnings: [] },
      { type: "tool-call", toolCallId: randomUUID(), toolName: call.name, input: JSON.stringify(call.input) },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
    ];
    return { stream: new ReadableStream({ start(controller) { for (const part of parts) controller.enqueue(part); controller.close(); } }) };
  },
};

const provider = {
  specificationVersion: "v4",
  languageModel: () => languageModel,
  embeddingModel: () => {
    throw new Error("demo: no embedding models");
  },
  imageModel: () => {
    throw new Error("demo: no image models");
  },
};
