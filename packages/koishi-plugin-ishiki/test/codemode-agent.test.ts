import { tool } from "ai";
import { z } from "zod";
import { afterAll, describe, expect, it } from "vitest";
import { createAgent, createMemoryStorage, createUserMessage, type AgentPlugin } from "@yesimagent/core";
import { createCodemodeSandbox } from "../src/codemode/index.js";
import { createCodemodeTool } from "../src/tools/index.js";
import { recordEvents, scriptedModel } from "../../core/test/agent-support.js";

const sandbox = createCodemodeSandbox({ poolSize: 1 });
afterAll(() => sandbox.close());

describe("the codemode tool on the agent core", () => {
  it("CT-8 nested calls pass the plugins' tool hooks: beforeToolCall sees and may replace or block them", async () => {
    const calls: Array<{ name: string; args: unknown }> = [];
    const add = tool({ description: "add", inputSchema: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }) => a + b });
    const secret = tool({ description: "secret", inputSchema: z.object({}), execute: async () => "leaked" });
    const codemode = createCodemodeTool({ sandbox, description: "run a program" });
    const plugins: AgentPlugin[] = [{
      name: "audit",
      beforeToolCall: (decision, call) => {
        calls.push({ name: call.toolName, args: call.args });
        if (call.toolName === "secret") return { type: "block", reason: "not from programs" };
        if (call.toolName === "add") return { type: "replace", args: { a: 40, b: 2 } };
        return decision;
      },
    }];
    const js = "const sum = await tools.add({ a: 1, b: 1 }); const s = await tools.secret({}); return { sum, s };";
    const model = scriptedModel([{ calls: [{ id: "c1", name: "codemode", input: { js } }] }, { text: "done" }]);
    const storage = createMemoryStorage();
    const agent = createAgent({ model, storage, tools: { add, secret, codemode }, toolCallers: { add: ["codemode"], secret: ["codemode"] }, plugins });
    const events = recordEvents(agent);
    agent.send(createUserMessage("go"));
    await agent.wait();
    expect(model.prompts[0].tools?.map((t) => t.name)).toEqual(["codemode"]);
    expect(calls).toEqual([{ name: "codemode", args: { js } }, { name: "add", args: { a: 1, b: 1 } }, { name: "secret", args: {} }]);
    expect(events.filter((e) => e.type === "tool.blocked").map((e) => (e as { toolName: string }).toolName)).toEqual(["secret"]);
    const entries = await storage.read();
    const result = entries.flatMap((entry) => (entry.type === "message" && entry.data.role === "tool" ? entry.data.content : []));
    expect(result[0]).toMatchObject({ toolName: "codemode", output: { type: "json", value: { sum: 42, s: { blocked: true, reason: "not from programs" } } } });
  });

  it("CT-8 a nested input that fails the tool's schema is a tool failure inside the program", async () => {
    const add = tool({ description: "add", inputSchema: z.object({ a: z.number() }), execute: async ({ a }) => a });
    const codemode = createCodemodeTool({ sandbox, description: "run a program" });
    const js = "try { await tools.add({ a: 'one' }); } catch (e) { return e.message; }";
    const model = scriptedModel([{ calls: [{ id: "c1", name: "codemode", input: { js } }] }, { text: "done" }]);
    const storage = createMemoryStorage();
    const agent = createAgent({ model, storage, tools: { add, codemode }, toolCallers: { add: ["codemode"] } });
    agent.send(createUserMessage("go"));
    await agent.wait();
    const entries = await storage.read();
    const result = entries.flatMap((entry) => (entry.type === "message" && entry.data.role === "tool" ? entry.data.content : []));
    expect(result[0]).toMatchObject({ output: { type: "text", value: expect.stringMatching(/^codemode: Tool "add" failed: .*invalid input/) } });
  });
});
