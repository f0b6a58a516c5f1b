// A real Koishi app for the owner's commands (issue 22): the mock adapter, an in-memory database (users and their
// authority), the kernel with declared, priced models, a scripted turn model and a judge model answering with
// `generate`; every log line is recorded and nothing reaches the console.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV4CallOptions, ProviderV4 } from "@ai-sdk/provider";
import { MockBot } from "@koishijs/plugin-mock";
import MemoryDriver from "@koishijs/plugin-database-memory";
import { MockLanguageModelV4 } from "ai/test";
import { Context, Logger } from "koishi";
import type { AgentEntry } from "@yesimagent/core";
import type { GatewayConfig } from "@yesimagent/gateway";
import { IshikiService } from "../src/koishi/index.js";
import { runtimesStopped } from "../src/runtime/index.js";
import { scriptedModel, usage, type ScriptedReply } from "../../core/test/agent-support.js";
import { readEvents } from "./runtime-app.js";
import { stopApp } from "./stop-app.js";

export interface OperatingApp {
  app: Context;
  dir: string;
  model: ReturnType<typeof scriptedModel>;
  /** Model ids the scripted provider was asked for, in call order. */
  served: string[];
  judgeCalls: LanguageModelV4CallOptions[];
  logs: Array<[string, string]>;
  /** What the bot answered `text` sent by `userId` in `channelId`, one string. */
  say(userId: string, channelId: string, text: string): Promise<string>;
  /** The entries of a channel runtime's events.jsonl (`mock:bot/<channelId>` of profile `profile`). */
  events(profile: string, channelId: string): Promise<AgentEntry[]>;
  dispose(): Promise<void>;
}

export interface OperatingAppOptions {
  profiles: Record<string, unknown>;
  /** Declared models of provider `mock` (prices included); any id is served by the scripted model. */
  models?: NonNullable<GatewayConfig["providers"]>[string]["models"];
  groups?: GatewayConfig["groups"];
  replies?: ScriptedReply[];
  /** The judge model's answers (provider `judge`). */
  judge?: () => string;
  commandAuthority?: number;
  /** Without a database Koishi has no users (and checks no authority); default true. */
  database?: boolean;
  /** Users with an authority, created before the test talks. */
  users?: Record<string, number>;
}

export const finishReply: ScriptedReply = { calls: [{ id: "f", name: "finish" }] };

export async function startOperatingApp(options: OperatingAppOptions): Promise<OperatingApp> {
  const dir = await mkdtemp(join(tmpdir(), "ishiki-operating-"));
  const logs: Array<[string, string]> = [];
  const saved = Logger.targets.splice(0, Logger.targets.length, { colors: 0, record: (record) => void logs.push([record.type, record.content]) });
  const level = Logger.levels.base;
  Logger.levels.base = Logger.DEBUG;
  const model = scriptedModel(options.replies ?? [finishReply]);
  const served: string[] = [];
  const judgeCalls: LanguageModelV4CallOptions[] = [];
  const judge = new MockLanguageModelV4({
    doGenerate: async (call) => {
      judgeCalls.push(call);
      return { content: [{ type: "text", text: options.judge?.() ?? "{}" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
    },
  });
  const app = new Context();
  // CommonJS with `exports.default`: Node ESM hands over the exports object (docs: toolchain traps).
  if (options.database !== false) app.plugin((MemoryDriver as unknown as { default: never }).default);
  app.plugin(MockBot, { selfId: "bot" });
  const providers = { mock: { api: "scripted", ...(options.models ? { models: options.models } : {}) }, judge: { api: "judging", models: [{ id: "j", prices: { input: 100, output: 100 } }] } };
  app.plugin(IshikiService, {
    dataPath: dir,
    profiles: options.profiles,
    models: { providers: {}, groups: {} },
    ...(options.commandAuthority === undefined ? {} : { commandAuthority: options.commandAuthority }),
  });
  await app.start();
  const gateway = app.ishiki.gateway;
  gateway.defineApi("scripted", (): ProviderV4 => ({
    specificationVersion: "v4",
    languageModel: (id: string) => {
      // One scripted conversation whatever the id; the id each call reached is recorded.
      return new Proxy(model, { get: (target, key) => (key === "doStream" ? (call: LanguageModelV4CallOptions) => (served.push(id), target.doStream(call)) : Reflect.get(target, key)) });
    },
  }) as unknown as ProviderV4);
  gateway.defineApi("judging", (): ProviderV4 => ({ specificationVersion: "v4", languageModel: () => judge }) as unknown as ProviderV4);
  gateway.reconfigure({ providers, groups: options.groups ?? {} });
  for (const [id, authority] of Object.entries(options.users ?? {})) await app.database.createUser("mock", id, { authority });
  const homeOf = (profile: string, channelId: string) => join(dir, "profiles", profile, "runtimes", "mock%3Abot", channelId);
  return {
    app,
    dir,
    model,
    served,
    judgeCalls,
    logs,
    async say(userId, channelId, text) {
      return (await app.mock.client(userId, channelId).receive(text)).join("\n");
    },
    events: (profile, channelId) => readEvents(homeOf(profile, channelId)),
    async dispose() {
      await stopApp(app);
      await runtimesStopped();
      Logger.targets.splice(0, Logger.targets.length, ...saved);
      Logger.levels.base = level;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
