import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockBot } from "@koishijs/plugin-mock";
import { MockLanguageModelV4 } from "ai/test";
import { Context, Logger } from "koishi";
import { afterEach, describe, expect, it } from "vitest";
import { checkQuickJSLoads, defaultCodemodeWorkers } from "../src/codemode/index.js";
import { IshikiConfig, IshikiService } from "../src/koishi/index.js";
import { deferred, usage } from "../../core/test/agent-support.js";
import { ProfileSchema } from "../src/koishi/profile-schema.js";
import { startMockKernel, until, type MockKernel } from "./koishi-app.js";
import { stopApp } from "./stop-app.js";

let kernel: MockKernel | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

const claimAll = { "mock:bot": ["*"] };

describe("plugin configuration (KP-1, KP-2, KP-7)", () => {
  it("KP-2 fills every plugin default and describes each key in zh-CN and en-US", () => {
    const config = IshikiConfig({});
    expect(config).toMatchObject({ dataPath: "data/ishiki", models: { providers: {}, groups: {} }, profiles: {}, dumpRequests: false, debugStream: false, logLevel: 2, codemodeWorkers: defaultCodemodeWorkers() });
    for (const key of ["dataPath", "models", "profiles", "dumpRequests", "debugStream", "logLevel", "codemodeWorkers"]) {
      const description = IshikiConfig.dict![key].meta.description as Record<string, string>;
      expect(description["zh-CN"], key).toMatch(/\S/);
      expect(description["en-US"], key).toMatch(/\S/);
    }
    expect(() => IshikiConfig({ logLevel: 4 } as never)).toThrow();
    expect(() => IshikiConfig({ codemodeWorkers: 0 } as never)).toThrow();
    // The console shows the profile form: the only visible variant of each profile entry is ProfileSchema.
    const entry = IshikiConfig.dict!.profiles.inner!;
    const visible = entry.list!.filter((variant) => !variant.meta.hidden);
    expect(visible.map((variant) => Object.keys(variant.dict ?? {}))).toEqual([Object.keys(ProfileSchema.dict!)]);
    expect((ProfileSchema.dict!.model.meta.description as Record<string, string>)["zh-CN"]).toMatch(/模型/);
    // A broken profile does not fail the plugin's configuration; it is skipped at start instead.
    expect(IshikiConfig({ profiles: { bad: { mode: 42 } } } as never).profiles).toEqual({ bad: { mode: 42 } });
  });

  it("KP-7 a profile gets every default of the table", () => {
    const profile = ProfileSchema({ model: "relay:qwen", channels: claimAll } as never) as Record<string, unknown>;
    expect(profile).toMatchObject({
      mode: "channel",
      extends: {},
      failover: { backoffMs: 500, failoverOn: "unavailable" },
      context: { engine: "standard" },
      wakeup: { engine: "standard" },
      toolcall: { engine: "native" },
      codemode: { enable: false, direct: [], directOnly: [], timeoutMs: 30000 },
      toolsearch: { enable: false, resident: [], maxResults: 5 },
      typing: { baseDelay: 500, charPerSecond: 5, minDelay: 800, maxDelay: 4000 },
      resources: { imageInput: false, maxImageCount: 4, maxImageBytes: 5 * 1024 * 1024, maxTotalImageBytes: 10 * 1024 * 1024, maxImageDimension: 8000, recentImageCount: 4, imagePruneBatchSize: 2 },
    });
    // Engine sections keep unknown keys of their blocks for the engine's own validation (its warning, EN-5); the
    // form's defaults are the engine's own.
    expect((ProfileSchema({ model: "m", channels: claimAll, context: { engine: "standard", standard: { x: 1 } } } as never) as { context: unknown }).context).toEqual({ engine: "standard", standard: { x: 1, maxTokens: 32000, refillRatio: 0.8 } });
  });
});

describe("profile sources and validation (KP-3, KP-4, KP-8, KP-38)", () => {
  it("KP-3 loads file profiles beside inline ones and skips an id defined both ways", async () => {
    kernel = await startMockKernel({
      profiles: { alice: { model: "mock:m", channels: { "mock:bot": ["a*"] } }, both: { model: "mock:m", channels: { "mock:bot": ["b"] } } },
      files: {
        "profiles/filed/profile.yml": "model: mock:m\nchannels: { 'mock:bot': ['f*'] }\n",
        "profiles/both/profile.yaml": "model: mock:m\nchannels: { 'mock:bot': ['z'] }\n",
      },
    });
    await until(() => kernel!.app.ishiki.profile("alice")?.status === "active" && kernel!.app.ishiki.profile("filed")?.status === "active");
    expect(kernel.app.ishiki.profile("both")).toBeUndefined();
    expect(kernel.logged(`[both] profile skipped: defined in koishi.yml and in ${join(kernel.dir, "profiles", "both", "profile.yaml")}`)).toBe(true);
  });

  it("KP-8 skips broken profiles with the path and reason, and the others activate", async () => {
    kernel = await startMockKernel({
      profiles: {
        good: { model: "mock:m", channels: claimAll },
        nomodel: { channels: { "mock:x": ["*"] } },
        nocolon: { model: "mock:m", channels: { mock: ["*"] } },
        bang: { model: "mock:m", channels: { "mock:y": ["!"] } },
        onlyex: { model: "mock:m", channels: { "mock:z": ["!a"] } },
        empty: { model: "mock:m", channels: {} },
      },
      files: { "profiles/yamlbad/profile.yml": "model: [unclosed\n" },
    });
    await until(() => kernel!.app.ishiki.profile("good")?.status === "active");
    for (const id of ["nomodel", "nocolon", "bang", "onlyex", "empty", "yamlbad"]) expect(kernel.app.ishiki.profile(id), id).toBeUndefined();
    expect(kernel.logged("[nomodel] profile skipped: model:")).toBe(true);
    expect(kernel.logged("[nocolon] profile skipped: channels.mock: account key needs platform:selfId")).toBe(true);
    expect(kernel.logged("[bang] profile skipped: channels.mock:y: empty pattern")).toBe(true);
    expect(kernel.logged("[onlyex] profile skipped: channels.mock:z: no positive pattern")).toBe(true);
    expect(kernel.logged("[empty] profile skipped: channels: claims no accounts")).toBe(true);
    expect(kernel.logged(`[yamlbad] profile skipped: ${join(kernel.dir, "profiles", "yamlbad", "profile.yml")}: invalid YAML`)).toBe(true);
  });

  it("KP-38 no profile at all logs one warning", async () => {
    kernel = await startMockKernel({});
    await until(() => kernel!.logged("no profile configured"));
    expect(kernel.logs.filter(([, line]) => line.includes("no profile configured"))).toHaveLength(1);
  });

  it("KP-4 KP-11 a profile overlapping an earlier id is skipped; disjoint claims load", async () => {
    kernel = await startMockKernel({
      profiles: {
        b: { model: "mock:m", channels: { "mock:*": ["g*"] } },
        a: { model: "mock:m", channels: { "mock:bot": ["*", "!g*"] } },
        c: { model: "mock:m", channels: { "mock:bot": ["gx"] } },
      },
    });
    await until(() => kernel!.app.ishiki.profile("a")?.status === "active" && kernel!.app.ishiki.profile("b")?.status === "active");
    expect(kernel.app.ishiki.profile("c")).toBeUndefined();
    expect(kernel.logged("[c] profile skipped: already claims channels of b on mock:bot")).toBe(true);
  });
});

describe("debugging switches (KP-2, KP-6)", () => {
  it("KP-6 debugStream logs each step with usage, finish and elapsed, and tool timings", async () => {
    kernel = await startMockKernel({
      profiles: { p: { model: "mock:m", channels: claimAll } },
      replies: [{ calls: [{ id: "s", name: "send_message", input: { messages: ["hi"] } }] }],
      debugStream: true,
    });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
    const runtime = await kernel.app.ishiki.runtime("p", { mode: "channel", platform: "mock", selfId: "bot", channelId: "c", isDirect: false });
    kernel.app.ishiki.outbound = { send: async () => ["id-1"] };
    runtime.wake();
    await runtime.agent.wait();
    await until(() => kernel!.logged("[ishiki:debug] tool.done send_message"));
    expect(kernel.logs.some(([, line]) => /\[ishiki:debug\] turn\.step #0 usage\(\d+\/\d+\/\d+\) finish=tool-calls elapsed=\d+ms/.test(line))).toBe(true);
  });
});

describe("live debug stream (KP-6)", () => {
  it("KP-6 XA-27 debugStream prints text, reasoning and tool-input deltas while the step is still streaming", async () => {
    const hold = deferred();
    let calls = 0;
    const languageModel = new MockLanguageModelV4({
      doStream: async () => {
        calls += 1;
        const first = calls === 1;
        const stream = new ReadableStream<LanguageModelV4StreamPart>({
          async start(controller) {
            const parts: LanguageModelV4StreamPart[] = first
              ? [
                  { type: "stream-start", warnings: [] },
                  { type: "reasoning-start", id: "r" },
                  { type: "reasoning-delta", id: "r", delta: "the user said hi" },
                  { type: "reasoning-end", id: "r" },
                  { type: "text-start", id: "t" },
                  { type: "text-delta", id: "t", delta: "Hel" },
                  { type: "text-delta", id: "t", delta: "lo\n" },
                  { type: "text-end", id: "t" },
                  { type: "tool-input-start", id: "s", toolName: "send_message" },
                  { type: "tool-input-delta", id: "s", delta: '{"messages":' },
                  { type: "tool-input-delta", id: "s", delta: '["hi"]}' },
                  { type: "tool-input-end", id: "s" },
                ]
              : [{ type: "stream-start", warnings: [] }, { type: "tool-call", toolCallId: "f", toolName: "finish", input: "{}" }];
            for (const part of parts) controller.enqueue(part);
            // The first step stays open until the test has seen its deltas: they must be printed live.
            if (first) await hold.promise;
            if (first) controller.enqueue({ type: "tool-call", toolCallId: "s", toolName: "send_message", input: '{"messages":["hi"]}' });
            controller.enqueue({ type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage });
            controller.close();
          },
        });
        return { stream };
      },
    });
    kernel = await startMockKernel({ profiles: { p: { model: "mock:m", channels: claimAll } }, languageModel, debugStream: true });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
    const runtime = await kernel.app.ishiki.runtime("p", { mode: "channel", platform: "mock", selfId: "bot", channelId: "c", isDirect: false });
    kernel.app.ishiki.outbound = { send: async () => ["id-1"] };
    runtime.wake();
    await until(() => kernel!.logged('[ishiki:debug] tool-input-delta send_message "[\\"hi\\"]}"'));
    const debug = () => kernel!.logs.map(([, line]) => line).filter((line) => line.startsWith("[ishiki:debug]"));
    expect(debug().some((line) => line.startsWith("[ishiki:debug] turn.step"))).toBe(false);
    expect(debug()).toEqual(
      expect.arrayContaining([
        '[ishiki:debug] reasoning-delta "the user said hi"',
        '[ishiki:debug] text-delta "Hel"',
        '[ishiki:debug] text-delta "lo\\n"',
        '[ishiki:debug] tool-input-start send_message',
        '[ishiki:debug] tool-input-delta send_message "{\\"messages\\":"',
      ]),
    );
    hold.resolve();
    await runtime.agent.wait();
    await until(() => kernel!.logged("[ishiki:debug] tool.done send_message"));
    const lines = debug();
    expect(lines.indexOf('[ishiki:debug] text-delta "Hel"')).toBeLessThan(lines.indexOf('[ishiki:debug] text-delta "lo\\n"'));
    expect(lines).toContain("[ishiki:debug] tool-call send_message");
    expect(lines.findIndex((line) => line.startsWith("[ishiki:debug] turn.step #0"))).toBeGreaterThan(lines.indexOf("[ishiki:debug] tool-call send_message"));
  });
});

describe("start-up isolation (KP-38, KP-39)", () => {
  it("KP-38 a profile on a provider the gateway left out as broken fails activation; the others activate", async () => {
    const app = new Context();
    const logs: string[] = [];
    const target: Logger.Target = { colors: 0, record: (record) => void logs.push(record.content) };
    Logger.targets.push(target);
    const dir = await mkdtemp(join(tmpdir(), "ishiki-koishi-"));
    try {
      app.plugin(MockBot, { selfId: "bot" });
      app.plugin(IshikiService, {
        dataPath: dir,
        models: {
          providers: {
            bad: { api: "no-such-api", models: [{ id: "m" }] },
            relay: { api: "openai-completions", baseUrl: "http://127.0.0.1:9/v1", models: [{ id: "m" }] },
          },
        },
        profiles: {
          broken: { model: "bad:m", channels: { "mock:bot": ["g1"] } },
          fine: { model: "relay:m", channels: { "mock:bot": ["g2"] } },
          later: { model: "undeclared:m", channels: { "mock:bot": ["g3"] } },
        },
      });
      await app.start();
      await until(() => app.ishiki.profile("fine")?.status === "active" && app.ishiki.profile("broken")?.status === "failed");
      expect(app.ishiki.profile("later")?.status).toBe("active");
      expect(logs.some((line) => line.startsWith("[broken] activation failed:") && line.includes("bad"))).toBe(true);
      // Issue 20: the cause is named once (it was logged three times), and the activation points at it.
      expect(logs.filter((line) => line.includes("no-such-api"))).toHaveLength(1);
      expect(logs).toContain('[broken] activation failed: model "bad:m" needs providers.bad, which the gateway left out (its error is logged above)');
      expect(logs.some((line) => line.startsWith("[fine] activation failed"))).toBe(false);
    } finally {
      await stopApp(app);
      Logger.targets.splice(Logger.targets.indexOf(target), 1);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("KP-38 a broken entry in models.yaml costs only itself: the file's good entries still serve their profiles", async () => {
    const app = new Context();
    const logs: string[] = [];
    const target: Logger.Target = { colors: 0, record: (record) => void logs.push(record.content) };
    Logger.targets.push(target);
    const dir = await mkdtemp(join(tmpdir(), "ishiki-koishi-"));
    try {
      await writeFile(
        join(dir, "models.yaml"),
        "providers:\n  relay: { api: openai-completions, baseUrl: 'http://127.0.0.1:9/v1', models: [{ id: m }] }\n  bad: { api: no-such-api, models: [{ id: m }] }\n",
      );
      app.plugin(MockBot, { selfId: "bot" });
      app.plugin(IshikiService, {
        dataPath: dir,
        profiles: {
          broken: { model: "bad:m", channels: { "mock:bot": ["g1"] } },
          fine: { model: "relay:m", channels: { "mock:bot": ["g2"] } },
        },
      });
      await app.start();
      await until(() => app.ishiki.profile("fine")?.status === "active" && app.ishiki.profile("broken")?.status === "failed");
      expect(app.ishiki.gateway.model("relay:m")).toBeDefined();
      expect(logs.some((line) => line.includes("bad") && line.includes("no-such-api"))).toBe(true);
    } finally {
      await stopApp(app);
      Logger.targets.splice(Logger.targets.indexOf(target), 1);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("KP-39 QuickJS is loaded once for codemode profiles, which then activate", async () => {
    const check = checkQuickJSLoads();
    expect(checkQuickJSLoads()).toBe(check);
    await expect(check).resolves.toBeUndefined();
    kernel = await startMockKernel({ profiles: { p: { model: "mock:m", channels: claimAll, codemode: { enable: true } } } });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
  });
});
