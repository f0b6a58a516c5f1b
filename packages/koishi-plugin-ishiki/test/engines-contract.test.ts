import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Middleware } from "@ai-sdk/provider";
import { Context } from "koishi";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import type { Agent, AgentEntry, AgentMessage } from "@yesimagent/core";
import {
  ContextEngine,
  ToolcallEngine,
  ToolcallEngineInstance,
  WakeupEngine,
  type ContextEngineInstance,
  type ContextEngines,
  type ContextRequest,
  type EngineConfig,
  type WakeupEngineInstance,
} from "../src/engines/index.js";
import { NativeToolcallInstance } from "../src/engines/toolcall/native.js";
import { sanitizeGeminiSchema } from "../src/engines/toolcall/gemini-schema.js";
import type { ExtensionHost } from "../src/extension/index.js";
import type { ProfileConfig } from "../src/profile/index.js";
import type { IshikiCompact } from "../src/types/index.js";
import { channel, fact, logged, startActive, startKernel, until, type KernelApp } from "./runtime-app.js";
import { promptTexts } from "../../core/test/agent-support.js";

declare module "../src/engines/index.js" {
  interface ContextEngines {
    probe: { label?: string };
  }
}

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

const profile = (extra: Record<string, unknown> = {}) => ({ model: "mock:m", channels: { "mock:bot": ["*"] }, ...extra });

describe("common contract (EN-1 .. EN-5)", () => {
  it("EN-1 GetName gives ishiki.engine.<family>.<name> and the constructor registers that service", async () => {
    expect(ContextEngine.GetName("briefing")).toBe("ishiki.engine.context.briefing");
    expect(WakeupEngine.GetName("rhythm")).toBe("ishiki.engine.wakeup.rhythm");
    expect(ToolcallEngine.GetName("grounding")).toBe("ishiki.engine.toolcall.grounding");
    class Probe extends ContextEngine<"probe"> {
      constructor(ctx: Context) {
        super(ctx, "probe");
      }
      [ContextEngine.invoke](): ContextEngineInstance {
        return {};
      }
    }
    kernel = await startKernel({ profiles: {}, setup: (app) => app.plugin(Probe) });
    await until(() => kernel!.app.get("ishiki.engine.context.probe") !== undefined);
    const service = kernel.app.get("ishiki.engine.context.probe") as Probe;
    expect(service.engineName).toBe("probe");
    expect(service.logger.name).toBe("ishiki.engine.context.probe");
  });

  it("EN-2 EN-3 invoke runs once per runtime with the whole section; one instance per runtime", async () => {
    const seen: unknown[] = [];
    class Probe extends ContextEngine<"probe"> {
      constructor(ctx: Context) {
        super(ctx, "probe");
      }
      [ContextEngine.invoke](_host: ExtensionHost, config: EngineConfig<Pick<ContextEngines, "probe">>): ContextEngineInstance {
        seen.push(config);
        return {};
      }
    }
    kernel = await startActive("p", {
      profiles: { p: profile({ context: { engine: "probe", probe: { label: "x" }, standard: { maxTokens: 5 } } }) },
      setup: (app) => app.plugin(Probe),
    });
    await kernel.app.ishiki.runtime("p", channel);
    await kernel.app.ishiki.runtime("p", channel);
    await kernel.app.ishiki.runtime("p", { ...channel, channelId: "c2" });
    expect(seen).toEqual([
      { engine: "probe", probe: { label: "x" }, standard: { maxTokens: 5 } },
      { engine: "probe", probe: { label: "x" }, standard: { maxTokens: 5 } },
    ]);
  });

  it("EN-3 EN-4 defaults are standard, standard, native, registered by the kernel", async () => {
    kernel = await startActive("p", { profiles: { p: profile() } });
    expect(kernel.app.ishiki.profile("p")?.services.slice(0, 3)).toEqual(["ishiki.engine.context.standard", "ishiki.engine.wakeup.standard", "ishiki.engine.toolcall.native"]);
    for (const name of kernel.app.ishiki.profile("p")!.services) expect(kernel.app.get(name)).toBeDefined();
  });

  it("EN-3 XA-18 EngineConfig and ProfileConfig sections are typed from the augmentable maps", () => {
    expectTypeOf<EngineConfig<Pick<ContextEngines, "probe">>>().toEqualTypeOf<{ engine: "probe" } & { probe?: { label?: string } }>();
    const ok: ProfileConfig = { model: "a:b", channels: {}, context: { engine: "probe", probe: { label: "y" } } };
    expect(ok.context?.engine).toBe("probe");
    // @ts-expect-error an engine name nobody declared is rejected
    const bad: ProfileConfig = { model: "a:b", channels: {}, context: { engine: "probex" } };
    expect(bad).toBeDefined();
    expectTypeOf<IshikiCompact>().toEqualTypeOf<{ summary: string; lastEntryId: string }>();
  });

  it("EN-5 a built-in's invalid block fails activation; unknown keys warn; custom variants get theirs as is", async () => {
    kernel = await startKernel({ profiles: { bad: profile({ channels: { "mock:bot": ["c1"] }, context: { engine: "standard", standard: { maxTokens: "lots" } } }), odd: profile({ channels: { "mock:bot": ["c2"] }, wakeup: { standard: { keywords: ["hi"], shout: true } } }) } });
    await until(() => kernel!.app.ishiki.profile("bad")?.status === "failed" && kernel!.app.ishiki.profile("odd")?.status === "active");
    expect(logged(kernel, "[bad] activation failed: context.standard.maxTokens: expected a number", "error")).toBe(true);
    expect(logged(kernel, "[odd] wakeup.standard.shout: unknown key ignored", "warn")).toBe(true);
  });
});

describe("context engines (EN-6 .. EN-8)", () => {
  it("EN-6 EN-7 prepareEntries, renderMessages and instructions run in pipeline order with { turnId, signal }", async () => {
    const calls: string[] = [];
    let request: ContextRequest | undefined;
    let rendered: AgentMessage[] = [];
    class Probe extends ContextEngine<"probe"> {
      constructor(ctx: Context) {
        super(ctx, "probe");
      }
      [ContextEngine.invoke](): ContextEngineInstance {
        return {
          attach: (agent: Agent) => {
            calls.push(`attach:${agent.id}`);
            return () => calls.push("detach");
          },
          prepareEntries: (entries: readonly AgentEntry[], req: ContextRequest) => {
            calls.push("prepareEntries");
            request = req;
            return entries.filter((entry) => !(entry.type === "message" && entry.data.role === "custom" && JSON.stringify(entry.data).includes("secret")));
          },
          renderMessages: (messages: AgentMessage[]) => {
            calls.push("renderMessages");
            rendered = messages;
            return messages;
          },
          instructions: () => {
            calls.push("instructions");
            return "PROBE INSTRUCTIONS";
          },
        };
      }
    }
    kernel = await startActive("p", { profiles: { p: profile({ context: { engine: "probe" } }) }, setup: (app) => app.plugin(Probe) });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    await runtime.deliver(fact("the secret word"));
    await runtime.deliver(fact("<at id=\"bot\"/> visible"));
    await until(() => kernel!.model.prompts.length === 1);
    await runtime.agent.wait();
    expect(calls).toEqual(["attach:p/mock:bot/c1", "instructions", "prepareEntries", "renderMessages"]);
    expect(request?.turnId).toEqual(expect.any(String));
    expect(request?.signal).toBeInstanceOf(AbortSignal);
    // renderMessages sees the facts as custom messages; the default rendering comes after it (EN-7).
    expect(rendered.map((message) => message.role)).toEqual(["custom"]);
    const prompt = promptTexts(kernel.model.prompts[0]);
    expect(prompt[0]).toContain("PROBE INSTRUCTIONS");
    expect(prompt.join("\n")).toContain("visible");
    expect(prompt.join("\n")).not.toContain("secret");
    await runtime.stop();
    expect(calls.at(-1)).toBe("detach");
  });
});

describe("wakeup engines (EN-23)", () => {
  it("EN-23 attach runs once at initialisation and the disposer at stop", async () => {
    const calls: string[] = [];
    class Probe extends WakeupEngine<"standard"> {
      constructor(ctx: Context) {
        super(ctx, "probe" as "standard");
      }
      [WakeupEngine.invoke](): WakeupEngineInstance {
        return {
          attach: () => {
            calls.push("attach");
            return () => calls.push("dispose");
          },
        };
      }
    }
    kernel = await startActive("p", { profiles: { p: profile({ wakeup: { engine: "probe" } }) }, setup: (app) => app.plugin(Probe) });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    await kernel.app.ishiki.runtime("p", channel);
    expect(calls).toEqual(["attach"]);
    await runtime.stop();
    expect(calls).toEqual(["attach", "dispose"]);
  });
});

class Tagging extends ToolcallEngineInstance {
  public constructor(private readonly tag: string | undefined) {
    super();
  }
  protected middleware(): LanguageModelV4Middleware | undefined {
    if (this.tag === undefined) return undefined;
    const tag = this.tag;
    return {
      specificationVersion: "v4",
      transformParams: async ({ params }): Promise<LanguageModelV4CallOptions> => ({ ...params, prompt: [{ role: "system", content: tag }, ...params.prompt] }),
    };
  }
}

describe("toolcall engines (EN-38, EN-39)", () => {
  it("EN-38 wrap returns the model itself without middleware, else a wrapped model; the shared model is untouched", () => {
    const model = new MockLanguageModelV4();
    expect(new Tagging(undefined).wrap(model)).toBe(model);
    const before = { ...model };
    const wrapped = new Tagging("x").wrap(model);
    expect(wrapped).not.toBe(model);
    expect(wrapped.specificationVersion).toBe("v4");
    expect({ ...model }).toEqual(before);
  });

  it("EN-38 the runtime wraps once at creation; setModel and a gateway reconfigure apply at the next call without wrapping again", async () => {
    const instances: Tagging[] = [];
    let wraps = 0;
    class Counting extends Tagging {
      public override wrap(model: LanguageModelV4): LanguageModelV4 {
        wraps += 1;
        return super.wrap(model);
      }
    }
    class Engine extends ToolcallEngine<"native"> {
      constructor(ctx: Context) {
        super(ctx, "tagging" as "native");
      }
      [ToolcallEngine.invoke](): ToolcallEngineInstance {
        const instance = new Counting("TAG");
        instances.push(instance);
        return instance;
      }
    }
    kernel = await startActive("p", { profiles: { p: profile({ toolcall: { engine: "tagging" } }) }, setup: (app) => app.plugin(Engine) });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    expect(wraps).toBe(1);
    runtime.wake();
    await runtime.agent.wait();
    expect(kernel.model.prompts[0].prompt[0]).toEqual({ role: "system", content: "TAG" });

    // setModel: the replacement answers the next step, still behind the one wrap.
    const replaced: LanguageModelV4CallOptions[] = [];
    const replacement = new MockLanguageModelV4({
      doStream: async (options) => {
        replaced.push(options);
        return kernel!.model.doStream(options);
      },
    });
    runtime.agent.setModel(replacement);
    runtime.wake();
    await runtime.agent.wait();
    expect(replaced).toHaveLength(1);
    expect(replaced[0].prompt[0]).toEqual({ role: "system", content: "TAG" });
    expect(runtime.agent.getModel()).not.toBe(replacement);

    // A reconfigure rebuilds the provider: the next call goes to the rebuilt gateway model, still one wrap.
    const before = kernel.model.prompts.length;
    kernel.app.ishiki.gateway.reconfigure({ providers: { mock: { api: "scripted" } } });
    runtime.wake();
    await runtime.agent.wait();
    expect(replaced).toHaveLength(1);
    expect(kernel.model.prompts.length).toBe(before + 1);
    expect(kernel.model.prompts.at(-1)?.prompt[0]).toEqual({ role: "system", content: "TAG" });
    expect(wraps).toBe(1);
    expect(instances).toHaveLength(1);
  });

  it("EN-39 native does not wrap other providers and reduces tool schemas for Google's Generative AI", async () => {
    const plain = new MockLanguageModelV4();
    expect(new NativeToolcallInstance().wrap(plain)).toBe(plain);
    const seen: LanguageModelV4CallOptions[] = [];
    const gemini = new MockLanguageModelV4({
      provider: "google.generative-ai",
      doGenerate: async (options) => {
        seen.push(options);
        return { content: [], finishReason: { unified: "stop", raw: "stop" }, usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }, warnings: [] };
      },
    });
    const wrapped = new NativeToolcallInstance().wrap(gemini);
    expect(wrapped).not.toBe(gemini);
    const inputSchema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      additionalProperties: false,
      properties: { tags: { type: "array", uniqueItems: true, items: { $ref: "#/$defs/tag" } }, map: { type: "object", propertyNames: { pattern: "^a" } } },
      $defs: { tag: { type: "string" } },
    } as const;
    await wrapped.doGenerate({ prompt: [], tools: [{ type: "function", name: "t", inputSchema }] });
    const tool = seen[0].tools?.[0];
    expect(tool?.type === "function" ? tool.inputSchema : undefined).toEqual({ type: "object", properties: { tags: { type: "array", items: { type: "string" } }, map: { type: "object" } } });
  });

  it("EN-39 the schema reduction splits type arrays, turns const into enum or its type, drops patternProperties, keeps $ref siblings", () => {
    expect(
      sanitizeGeminiSchema({
        type: "object",
        properties: {
          maybe: { type: ["string", "null"] },
          either: { type: ["string", "number"], description: "Text or count." },
          mode: { const: "fast" },
          level: { const: 3 },
          map: { type: "object", patternProperties: { "^x": { type: "string" } } },
          ref: { $ref: "#/definitions/item", description: "The item." },
          patternProperties: { type: "string" },
        },
        definitions: { item: { type: "object", properties: { id: { type: "integer" } } } },
      }),
    ).toEqual({
      type: "object",
      properties: {
        maybe: { type: "string", nullable: true },
        either: { anyOf: [{ type: "string" }, { type: "number" }], description: "Text or count." },
        mode: { enum: ["fast"], type: "string" },
        level: { type: "number" },
        map: { type: "object" },
        ref: { type: "object", properties: { id: { type: "integer" } }, description: "The item." },
        patternProperties: { type: "string" },
      },
    });
  });

  it("EN-39 the schema reduction keeps properties named like dropped keywords and cuts recursive refs", () => {
    expect(
      sanitizeGeminiSchema({ type: "object", properties: { uniqueItems: { type: "boolean" }, node: { $ref: "#" } } }),
    ).toEqual({ type: "object", properties: { uniqueItems: { type: "boolean" }, node: { type: "object", properties: { uniqueItems: { type: "boolean" }, node: {} } } } });
  });
});
