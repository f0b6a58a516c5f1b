import { Context } from "koishi";
import { tool } from "ai";
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { ContextEngine, WakeupEngine, type ContextEngineInstance, type WakeupEngineInstance } from "../src/engines/index.js";
import { Extension, type AgentRuntime, type ExtensionHost, type ExtensionInstance } from "../src/extension/index.js";
import { AgentRuntimeError, ToolConflictError } from "@yesimagent/core";
import { mergeToolGroups } from "../src/runtime/index.js";
import { channel, labels, logged, readEvents, startActive, startKernel, until, type KernelApp } from "./runtime-app.js";

const noop = (name: string) => tool({ description: name, inputSchema: z.object({}), execute: async () => ({ ok: true }) });

function extension(name: string, instance: () => ExtensionInstance) {
  return class extends Extension {
    constructor(ctx: Context) {
      super(ctx, name);
    }
    [Extension.invoke](_host: ExtensionHost) {
      return instance();
    }
  };
}

const profile = (extra: Record<string, unknown> = {}) => ({ model: "mock:m", channels: { "mock:bot": ["*"] }, ...extra });

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

async function oneTurn(k: KernelApp, profileId = "p") {
  const runtime = await k.app.ishiki.runtime(profileId, channel);
  runtime.wake();
  await runtime.agent.wait();
  return { runtime, entries: await readEvents(runtime.home) };
}

function failure(entries: Awaited<ReturnType<typeof readEvents>>): string | undefined {
  const failed = entries.find((entry) => entry.type === "event" && entry.data.type === "turn.failed");
  return failed?.type === "event" && failed.data.type === "turn.failed" ? `${failed.data.error.name}: ${failed.data.error.message}` : undefined;
}

describe("tool assembly (XA-11, XA-12)", () => {
  it("XA-11 merge order: read, send_message, finish, extension tools in extends order, wait", async () => {
    kernel = await startActive("p", {
      profiles: { p: profile({ extends: { zeta: {}, alpha: {} } }) },
      setup: (app) => {
        app.plugin(extension("alpha", () => ({ extendTools: () => ({ alpha_tool: noop("a") }) })));
        app.plugin(extension("zeta", () => ({ extendTools: () => ({ zeta_one: noop("z1"), zeta_two: noop("z2") }) })));
      },
    });
    await oneTurn(kernel);
    expect(kernel.model.prompts[0].tools?.map((t) => t.name)).toEqual(["read", "send_message", "finish", "zeta_one", "zeta_two", "alpha_tool", "wait"]);
  });

  it("XA-12 a duplicate name fails the turn with ToolConflictError naming both sources", async () => {
    kernel = await startActive("p", {
      profiles: { p: profile({ extends: { one: {}, two: {} } }) },
      setup: (app) => {
        app.plugin(extension("one", () => ({ extendTools: () => ({ shared: noop("1") }) })));
        app.plugin(extension("two", () => ({ extendTools: () => ({ shared: noop("2") }) })));
      },
    });
    const { entries } = await oneTurn(kernel);
    expect(failure(entries)).toBe("ToolConflictError: Tool conflict: shared (extension one and extension two)");
    expect(kernel.model.prompts).toHaveLength(0);
  });

  it("XA-12 core and reserved names are taken even when their feature is off", async () => {
    for (const [name, expected] of [
      ["read", "Tool conflict: read (core and extension thief)"],
      ["wait", "Tool conflict: wait (core and extension thief)"],
      ["codemode", "Tool conflict: codemode (reserved and extension thief)"],
      ["search", "Tool conflict: search (reserved and extension thief)"],
    ] as const) {
      kernel = await startActive("p", {
        profiles: { p: profile({ extends: { thief: {} } }) },
        setup: (app) => app.plugin(extension("thief", () => ({ extendTools: () => ({ [name]: noop(name) }) }))),
      });
      const { entries } = await oneTurn(kernel);
      expect(failure(entries)).toBe(`ToolConflictError: ${expected}`);
      await kernel.dispose();
      kernel = undefined;
    }
  });

  it("XA-12 mergeToolGroups throws a ToolConflictError whose name is stable", () => {
    const error = (() => {
      try {
        mergeToolGroups([{ source: "core", tools: { read: noop("r") } }, { source: "extension x", tools: { read: noop("x") } }]);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ToolConflictError);
    expect((error as Error).name).toBe("ToolConflictError");
  });
});

describe("failure locations (XA-26)", () => {
  it("XA-26 extendTools or extendInstructions throwing fails that turn; the next turn assembles again", async () => {
    let fail = true;
    kernel = await startActive("p", {
      profiles: { p: profile({ extends: { moody: {} } }) },
      setup: (app) =>
        app.plugin(
          extension("moody", () => ({
            extendInstructions: () => {
              if (fail) throw new Error("instructions unavailable");
              return "fine";
            },
          })),
        ),
    });
    const first = await oneTurn(kernel);
    expect(failure(first.entries)).toBe("Error: instructions unavailable");
    fail = false;
    const { entries } = await oneTurn(kernel);
    expect(labels(entries).slice(-5)).toEqual(["turn.start", "user:Continue.", "assistant:finish", "tool:finish", "turn.done"]);
  });

  it("XA-26 a context engine whose instructions() throws fails the turn at step 0", async () => {
    class Sulky extends ContextEngine<"standard"> {
      constructor(ctx: Context) {
        super(ctx, "sulky" as "standard");
      }
      [ContextEngine.invoke](): ContextEngineInstance {
        return { instructions: () => Promise.reject(new Error("no briefing today")) };
      }
    }
    kernel = await startActive("p", { profiles: { p: profile({ context: { engine: "sulky" } }) }, setup: (app) => app.plugin(Sulky) });
    const { entries } = await oneTurn(kernel);
    expect(failure(entries)).toBe("Error: no briefing today");
  });

  it("XA-26 an engine attach that throws fails runtime creation and stops what was created", async () => {
    const stopped: string[] = [];
    class Fragile extends WakeupEngine<"standard"> {
      constructor(ctx: Context) {
        super(ctx, "fragile" as "standard");
      }
      [WakeupEngine.invoke](): WakeupEngineInstance {
        return {
          attach: () => {
            throw new Error("cannot attach");
          },
        };
      }
    }
    kernel = await startActive("p", {
      profiles: { p: profile({ wakeup: { engine: "fragile" }, extends: { watcher: {} } }) },
      setup: (app) => {
        app.plugin(Fragile);
        app.plugin(extension("watcher", () => ({ stop: () => void stopped.push("watcher") })));
      },
    });
    await expect(kernel.app.ishiki.runtime("p", channel)).rejects.toThrow("cannot attach");
    await until(() => logged(kernel!, "[p/mock:bot/c1] runtime creation failed: cannot attach", "error"));
    expect(kernel.app.ishiki.profile("p")?.runtimeIds()).toEqual([]);
    // The watcher was invoked before the engines attached: it is stopped with the failed creation.
    expect(stopped).toEqual(["watcher"]);
  });

  it("XA-26 a tool whose execute throws gives an error result and the turn continues", async () => {
    kernel = await startActive("p", {
      profiles: { p: profile({ extends: { bomb: {} } }) },
      replies: [{ calls: [{ id: "b", name: "boom" }] }, { calls: [{ id: "f", name: "finish" }] }],
      setup: (app) =>
        app.plugin(
          extension("bomb", () => ({
            extendTools: () => ({
              boom: tool({
                description: "explodes",
                inputSchema: z.object({}),
                execute: async (): Promise<{ ok: boolean }> => {
                  throw new Error("kaboom");
                },
              }),
            }),
          })),
        ),
    });
    const { entries } = await oneTurn(kernel);
    expect(labels(entries)).toEqual(["turn.start", "user:Continue.", "assistant:boom", "tool:boom", "assistant:finish", "tool:finish", "turn.done"]);
    expect(JSON.stringify(entries[3])).toContain("kaboom");
  });

  it("XA-26 the imageInput gate fails the activation of a profile whose model does not declare image input", async () => {
    kernel = await startKernel({ profiles: { seer: profile({ channels: { "mock:bot": ["c1"] }, resources: { imageInput: true } }), plain: profile({ channels: { "mock:bot": ["c2"] } }) } });
    await until(() => kernel!.app.ishiki.profile("seer")?.status === "failed" && kernel!.app.ishiki.profile("plain")?.status === "active");
    expect(logged(kernel, "[seer] activation failed: resources.imageInput requires image input; mock:m does not declare it", "error")).toBe(true);
  });

  it("XA-26 an invalid profile is skipped and other profiles load", async () => {
    kernel = await startKernel({ profiles: { broken: { channels: {} }, good: profile() } });
    await until(() => kernel!.app.ishiki.profile("good")?.status === "active");
    expect(kernel.app.ishiki.profile("broken")).toBeUndefined();
    expect(logged(kernel, "[broken] profile skipped: model: expected a model reference", "error")).toBe(true);
  });

  it("XA-21 XA-26 a missing engine service makes the profile wait with one log line", async () => {
    kernel = await startKernel({ profiles: { p: profile({ context: { engine: "ghost" } }) } });
    await until(() => logged(kernel!, "[p] missing required service ishiki.engine.context.ghost; profile is waiting (check the name if the plugin is installed)", "warn"));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(kernel.logs.filter(([, line]) => line.includes("ishiki.engine.context.ghost")).length).toBe(1);
    expect(kernel.app.ishiki.profile("p")?.status).toBe("waiting");
  });
});

describe("creation and stop order (KP-18, KP-19)", () => {
  it("KP-18 KP-19 creation attaches the context engine, the wakeup engine, then extensions in extends order; stop undoes it in reverse after the agent", async () => {
    const log: string[] = [];
    const recorder = (name: string) => () => {
      log.push(`${name} attach`);
      return () => void log.push(`${name} dispose`);
    };
    class RecordingContext extends ContextEngine<"standard"> {
      constructor(ctx: Context) {
        super(ctx, "recording" as "standard");
      }
      [ContextEngine.invoke](): ContextEngineInstance {
        return { attach: recorder("context") };
      }
    }
    class RecordingWakeup extends WakeupEngine<"standard"> {
      constructor(ctx: Context) {
        super(ctx, "recording" as "standard");
      }
      [WakeupEngine.invoke](): WakeupEngineInstance {
        return { attach: recorder("wakeup") };
      }
    }
    const recordingExtension = (name: string) =>
      extension(name, () => ({
        attach: (handle) => {
          handle.agent.channel.subscribe("agent", (event) => {
            if (event.type === "agent.stop") log.push(`agent.stop seen by ${name}`);
          });
          return recorder(name)();
        },
        stop: () => void log.push(`${name} stop`),
      }));
    kernel = await startActive("p", {
      profiles: { p: profile({ context: { engine: "recording" }, wakeup: { engine: "recording" }, extends: { zeta: {}, alpha: {} } }) },
      setup: (app) => {
        app.plugin(RecordingContext);
        app.plugin(RecordingWakeup);
        app.plugin(recordingExtension("alpha"));
        app.plugin(recordingExtension("zeta"));
      },
    });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    expect(log).toEqual(["context attach", "wakeup attach", "zeta attach", "alpha attach"]);
    log.length = 0;
    await runtime.stop();
    expect(log).toEqual([
      "agent.stop seen by zeta",
      "agent.stop seen by alpha",
      "alpha stop",
      "alpha dispose",
      "zeta stop",
      "zeta dispose",
      "wakeup dispose",
      "context dispose",
    ]);
  });
});

describe("a stopped runtime takes no new work", () => {
  it("KP-19 AG-28 an extension's stop() that calls wake() gets a clear error and no model call starts during teardown", async () => {
    let handle: AgentRuntime | undefined;
    let woke: unknown;
    kernel = await startActive("p", {
      profiles: { p: profile({ extends: { late: {} } }) },
      setup: (app) =>
        app.plugin(
          extension("late", () => ({
            attach: (runtime) => void (handle = runtime),
            stop: () => {
              try {
                handle!.wake("one more turn");
              } catch (error) {
                woke = error;
                throw error;
              }
            },
          })),
        ),
    });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    await runtime.stop();
    await runtime.agent.wait();
    expect(kernel.model.prompts).toHaveLength(0);
    expect(woke).toBeInstanceOf(AgentRuntimeError);
    expect(logged(kernel, "extension late stop(): stop failed: Agent is stopped; call init() to start it again", "warn")).toBe(true);
    expect(labels(await readEvents(runtime.home))).not.toContain("turn.start");
  });
});
