import { afterEach, describe, expect, it } from "vitest";
import { finish, group, said, startKernel, toolResults, until, type Kernel } from "./support.js";

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

describe("memory tools in codemode (issue 24)", () => {
  it("with codemode on, the memory tools leave the model's request and a program saves and searches through them", async () => {
    kernel = await startKernel({ alice: { model: "mock:m", channels: { "mock:bot": ["*"] }, codemode: { enable: true }, extends: { memory: {} } } });
    await until(() => kernel!.app.ishiki.profile("alice")?.status === "active");
    const g1 = group("g1");
    const runtime = await kernel.app.ishiki.runtime("alice", g1);
    await runtime.deliver(said(g1, "u1", "我下周去成都", "阿杰"));
    await runtime.agent.wait();
    const js = [
      'const saved = await tools.memory_save({ text: "阿杰下周去成都", subject: "u1" });',
      'const found = await tools.memory_search({ query: "成都" });',
      "return { saved, ids: found.results.map((r) => r.id), ranking: found.ranking };",
    ].join("\n");
    kernel.queue.push({ calls: [{ id: "c1", name: "codemode", input: { js } }] }, finish);
    runtime.wake("Go on.");
    await until(() => kernel!.model.prompts.length >= 2);
    await runtime.agent.wait();
    const [first, second] = kernel.model.prompts;
    const names = first.tools?.map((tool) => tool.name) ?? [];
    expect(names).toContain("codemode");
    expect(names).not.toContain("memory_save");
    const description = first.tools?.find((tool) => tool.name === "codemode");
    expect(JSON.stringify(description)).toContain("declare function memory_search");
    expect(toolResults(second).codemode).toMatchObject({ value: { saved: { id: 1, url: "memory://1", status: "saved" }, ids: [1], ranking: "bm25" } });
  });
});
