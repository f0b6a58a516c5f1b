import { jsonSchema, tool, type ToolSet } from "ai";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { recordingLogger } from "../../core/test/agent-support.js";
import { resolveCodemodeSettings, resolveToolsearchSettings } from "../src/runtime/program-settings.js";
import { routeTools } from "../src/runtime/tool-routing.js";
import { ToolSurface } from "../src/runtime/tool-surface.js";

const noop = (name: string) => tool({ description: name, inputSchema: z.object({}), execute: async () => name });

describe("codemode routing and settings", () => {
  it("CT-2 CT-3 the routing table: direct-only unlisted, both direct+codemode, the rest sandbox-only; unknown names reported", () => {
    const tools = { read: noop("r"), send_message: noop("s"), finish: noop("f"), note: noop("n"), pin: noop("p"), shout: noop("x"), wait: noop("w"), codemode: noop("c") };
    const routes = routeTools(tools, { direct: ["pin"], directOnly: ["shout", "ghost"] });
    expect(routes.toolCallers).toEqual({ read: ["direct", "codemode"], send_message: ["direct", "codemode"], note: ["codemode"], pin: ["direct", "codemode"] });
    expect(routes.programCallable).toEqual(["read", "send_message", "note", "pin"]);
    expect(routes.direct).toEqual(["read", "send_message", "finish", "pin", "shout", "wait", "codemode"]);
    expect(routes.unknown).toEqual(["ghost"]);
  });

  it("CT-1 CT-12 CT-21 profile keys: defaults off, limits validated with a one-line error", () => {
    expect(resolveCodemodeSettings(undefined)).toMatchObject({ enable: false, direct: [], directOnly: [], limits: { timeoutMs: 30000, maxToolCalls: 1000 } });
    expect(resolveCodemodeSettings({ enable: true, timeoutMs: 500 }).limits.timeoutMs).toBe(500);
    expect(() => resolveCodemodeSettings({ timeoutMs: 0 })).toThrow("codemode: timeoutMs must be an integer >= 1; got 0");
    expect(() => resolveCodemodeSettings({ direct: "bash" })).toThrow(/^codemode\.direct: /);
    expect(resolveToolsearchSettings({ enable: true })).toEqual({ enable: true, resident: [], maxResults: 5 });
    expect(() => resolveToolsearchSettings({ maxResults: 21 })).toThrow(/^toolsearch\.maxResults: /);
  });

  it("CT-7 the runtime's sandbox is closed when the surface closes (runtime stop)", async () => {
    const surface = new ToolSurface({ codemode: resolveCodemodeSettings({ enable: true }), toolsearch: resolveToolsearchSettings(undefined), logger: recordingLogger() });
    await surface.complete({ note: noop("n") });
    const sandbox = surface.sandbox!;
    const outcome = await sandbox.run({ js: "return 1", tools: [], callTool: async () => null });
    expect(outcome).toMatchObject({ ok: true, value: 1 });
    expect(sandbox.stats().workers).toBeGreaterThan(0);
    await surface.close();
    expect(sandbox.stats().workers).toBe(0);
    await expect(sandbox.run({ js: "return 1", tools: [], callTool: async () => null })).rejects.toThrow();
  });

  it("issue 19: with toolsearch on, a runtime reads the signatures of visible tools only; a search hit's when it is found", async () => {
    let outputReads = 0;
    const output = () =>
      jsonSchema(() => {
        outputReads++;
        return { type: "object" as const, properties: { ok: { type: "boolean" as const } } };
      });
    const deferred: ToolSet = {};
    for (let i = 0; i < 50; i++) deferred[`lamp_${i}`] = tool({ description: `Switch lamp ${i}.`, inputSchema: z.object({ on: z.boolean() }), outputSchema: output(), execute: async () => ({ ok: true }) });
    const surface = new ToolSurface({ codemode: resolveCodemodeSettings({ enable: true }), toolsearch: resolveToolsearchSettings({ enable: true }), logger: recordingLogger() });
    const tools = await surface.complete({ send_message: noop("s"), ...deferred, ...surface.kernelTools() });
    expect(outputReads).toBe(0);
    expect(surface.nextCatalog()?.kind).toBe("baseline");
    const search = tools.search.execute as unknown as (input: { query: string }, options: { toolCallId: string; messages: [] }) => Promise<{ tools: { name: string }[] }>;
    const found = await search({ query: "lamp_7" }, { toolCallId: "s1", messages: [] });
    expect(found.tools[0].name).toBe("lamp_7");
    const delta = surface.nextCatalog();
    expect(delta?.added.map((added) => added.name).sort()).toEqual(found.tools.map((hit) => hit.name).sort());
    expect(delta?.added.find((added) => added.name === "lamp_7")?.signature).toBe("/** Switch lamp 7. */\ndeclare function lamp_7(input: {\n  on: boolean;\n}): Promise<{\n  ok?: boolean;\n}>;");
    expect(outputReads).toBe(found.tools.length);
    await surface.close();
  });
});
