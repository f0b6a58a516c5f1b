import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { Service } from "koishi";
import type { Context } from "koishi";
import { Extension } from "koishi-plugin-ishiki";
import { afterEach, describe, expect, it } from "vitest";
import { alive, channel, entries, startKernel, stdio, toolOutputs, until, writeJson, type Kernel } from "./support.js";

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

async function listAll(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name);
}

const profile = (extra: Record<string, unknown> = {}) => ({ model: "mock:m", channels: { "mock:bot": ["*"] }, extends: { "mcp-client": {}, ...extra } });

describe("through a real runtime", () => {
  it("MC-12 EX an image block becomes one attachment; a long text is archived once with the artifact:// trailer", async () => {
    kernel = await startKernel(
      { alice: profile() },
      {
        prepare: (dir) => writeJson(join(dir, ".mcp.json"), { mcpServers: { fx: stdio() } }),
        replies: [
          { calls: [{ id: "s1", name: "fx-shot" }, { id: "l1", name: "fx-long", input: { n: 40_000 } }] },
          { calls: [{ id: "f1", name: "finish" }] },
        ],
      },
    );
    await until(() => kernel!.app.ishiki.profile("alice")?.status === "active");
    const runtime = await kernel.app.ishiki.runtime("alice", channel());
    runtime.wake("Take a screenshot and read the long log.");
    await until(() => kernel!.prompts.length >= 2, 15_000);
    await runtime.agent.wait();

    expect(kernel.prompts[0].tools?.map((tool) => tool.name)).toEqual(expect.arrayContaining(["fx-echo", "fx-shot", "fx-long"]));
    const list = await entries(runtime.home);
    const attachments = list.filter((entry) => entry.type === "message" && entry.data.type === "ishiki.attachment");
    expect(attachments).toHaveLength(1);
    expect(JSON.stringify(attachments[0].data)).toContain("image/png");
    const outputs = toolOutputs(list);
    expect(JSON.stringify(outputs["fx-shot"])).toMatch(/a screenshot\\n\[attachment: [a-z]+:\/\/[^;]+; image\/png; \d+ bytes\]/);
    const long = JSON.stringify(outputs["fx-long"]);
    expect(long.match(/artifact:\/\/\S+/g)?.length).toBeGreaterThan(0);
    expect(long.length).toBeLessThan(32_000);
    const artifacts = await listAll(join(runtime.home, "resources", "artifacts", "fx-long"));
    const blobs = artifacts.filter((name) => !name.endsWith(".json"));
    expect(blobs).toHaveLength(1);
    expect(long).toContain(`artifact://fx-long/${blobs[0].replace(/\.[a-z]+$/, "")}`);
  });

  it("MC-6 MC-7 runtimes of one profile share one pool; it closes after the last release, and a new runtime reconnects", async () => {
    kernel = await startKernel(
      { alice: profile() },
      {
        idleCloseMs: 300,
        prepare: (dir) => writeJson(join(dir, "profiles", "alice", "mcp.json"), { mcpServers: { fx: stdio() } }),
        replies: [1, 2, 3].flatMap((n) => [{ calls: [{ id: `w${n}`, name: "fx-whoami" }] }, { calls: [{ id: `f${n}`, name: "finish" }] }]),
      },
    );
    await until(() => kernel!.app.ishiki.profile("alice")?.status === "active");
    const one = await kernel.app.ishiki.runtime("alice", channel("c1"));
    const two = await kernel.app.ishiki.runtime("alice", channel("c2"));
    one.wake("who?");
    await until(() => kernel!.prompts.length >= 2, 15_000);
    await one.agent.wait();
    two.wake("who?");
    await until(() => kernel!.prompts.length >= 4, 15_000).catch((error) => {
      throw new Error(`${error.message}: ${kernel!.prompts.length} prompts`);
    });
    await two.agent.wait();
    const pid = (home: string) => entries(home).then((list) => JSON.parse((toolOutputs(list)["fx-whoami"] as { value: string }).value).pid as number);
    const first = await pid(one.home);
    expect(await pid(two.home)).toBe(first);
    expect(kernel.logs.filter((line) => line.includes('MCP server "fx" connected'))).toHaveLength(1);

    await kernel.app.ishiki.profile("alice")!.evictIdle(Date.now() + 31 * 60_000);
    expect(alive(first)).toBe(true);
    await until(() => !alive(first), 5000);
    expect(kernel.logs.some((line) => line.includes("[alice] MCP pool idle; closing"))).toBe(true);

    const three = await kernel.app.ishiki.runtime("alice", channel("c3"));
    three.wake("who?");
    await until(() => kernel!.prompts.length >= 6, 15_000);
    await three.agent.wait();
    expect(await pid(three.home)).not.toBe(first);
  });

  it("MC-7 disposing the profile activation (host.fiber) closes the pool at once and its stdio children end", async () => {
    class Gate extends Extension {
      public static readonly inject = ["ishiki"];
      public constructor(ctx: Context) {
        super(ctx, "gate");
      }
      public [Service.invoke]() {
        return undefined;
      }
    }
    let gate: ReturnType<Context["plugin"]> | undefined;
    kernel = await startKernel(
      { alice: profile({ gate: {} }) },
      {
        prepare: (dir) => writeJson(join(dir, ".mcp.json"), { mcpServers: { fx: stdio() } }),
        replies: [{ calls: [{ id: "w", name: "fx-whoami" }] }, { calls: [{ id: "f", name: "finish" }] }],
        plugins: (app) => void (gate = app.plugin(Gate)),
      },
    );
    await until(() => kernel!.app.ishiki.profile("alice")?.status === "active");
    const runtime = await kernel.app.ishiki.runtime("alice", channel());
    runtime.wake("who?");
    await until(() => kernel!.prompts.length >= 2, 15_000);
    await runtime.agent.wait();
    const { pid } = JSON.parse((toolOutputs(await entries(runtime.home))["fx-whoami"] as { value: string }).value) as { pid: number };
    expect(alive(pid)).toBe(true);
    gate!.dispose();
    // The idle delay is 60 s here: only the fiber's disposal can end the child this soon.
    await until(() => !alive(pid), 5000);
    expect(kernel.app.ishiki.profile("alice")?.status).toBe("waiting");
  });
});
