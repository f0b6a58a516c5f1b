// The demo's model choice (spec 08 KP-41). With ISHIKI_BASE_URL and ISHIKI_MODEL it points the `bot` model group
// at that OpenAI-compatible endpoint; otherwise it registers a scripted model (api `demo`) that walks the seed
// journey with whatever tools the runtime offers: `search`, then `codemode` reading /notes/notes.txt and writing
// /notes/tasks.txt, then `send_message` with a reply prefixed `[demo model]`.
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

const PROGRAM = `const notes = await tools.read_file({ path: "/notes/notes.txt" });
const text = notes.content;
const tasks = text.split("\\n").filter((line) => line.startsWith("- ")).map((line) => "[ ] " + line.slice(2));
await tools.write_file({ path: "/notes/tasks.txt", content: tasks.join("\\n") + "\\n" });
return { tasks };`;

/**
 * What this turn did so far: which tools returned, and the tasks codemode returned. A previous turn ended with
 * its send_message or finish call, so results before that are forgotten.
 */
function progress(prompt) {
  let done = new Set();
  let tasks;
  for (const message of prompt) {
    if (message.role === "assistant" && Array.isArray(message.content)) {
      const ended = message.content.some((part) => part.type === "tool-call" && (part.toolName === "finish" || part.toolName === "send_message"));
      if (ended) {
        done = new Set();
        tasks = undefined;
      }
    }
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      done.add(part.toolName);
      if (part.toolName === "codemode") tasks = JSON.stringify(part.output).match(/\[ \] [^"\\]+/g) ?? undefined;
    }
  }
  return { done, tasks };
}

function nextCall(options) {
  const names = new Set((options.tools ?? []).map((tool) => tool.name));
  const { done, tasks } = progress(options.prompt);
  if (done.has("send_message")) return { name: "finish", input: {} };
  if (names.has("search") && !done.has("search")) return { name: "search", input: { query: "read and write workspace files" } };
  if (names.has("codemode") && !done.has("codemode")) return { name: "codemode", input: { js: PROGRAM } };
  const reply = tasks?.length
    ? `[demo model] I read notes.txt and wrote tasks.txt:\n${tasks.join("\n")}`
    : "[demo model] Hello! I am the scripted demo model. Set ISHIKI_BASE_URL and ISHIKI_MODEL to talk to a real one.";
  return { name: "send_message", input: { messages: [reply] } };
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
