import { readFile, writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { channel, startKernel, until, type Kernel } from "./support.js";

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

function promptText(prompt: unknown): string {
  return JSON.stringify(prompt);
}

describe("the workspace extension in a Koishi app", () => {
  it("WS-2 WS-9 WS-13 WS-24 a turn sees the tools and cached instructions; bash output reaches the model as its display", async () => {
    kernel = await startKernel(
      { alice: { model: "mock:m", channels: { "mock:bot": ["*"] }, extends: { workspace: { config: { timeoutMs: 4000 } } } } },
      [
        { calls: [{ id: "w1", name: "write_file", input: { path: "hello.txt", content: "hello from the model\n" } }] },
        { calls: [{ id: "b1", name: "bash", input: { command: "cat hello.txt; echo warn >&2; exit 2" } }] },
        { calls: [{ id: "f1", name: "finish" }] },
      ],
    );
    await until(() => kernel!.app.ishiki.profile("alice")?.status === "active");
    const runtime = await kernel.app.ishiki.runtime("alice", channel);
    expect(runtime.resources.listSchemes()).toEqual(expect.arrayContaining(["workspace", "skill"]));
    runtime.wake("Write a file.");
    await until(() => kernel!.model.prompts.length >= 3);
    await runtime.agent.wait();

    expect(await readFile(join(runtime.home, "workspace", "hello.txt"), "utf8")).toBe("hello from the model\n");
    const [first, , third] = kernel.model.prompts;
    expect(first.tools?.map((tool) => tool.name)).toEqual(expect.arrayContaining(["bash", "read_file", "write_file", "edit_file"]));
    const system = JSON.stringify(first.prompt.filter((message) => message.role === "system"));
    expect(system).toContain("## Workspace");
    expect(system).toContain("Each command stops after 4000 ms");
    expect(promptText(third.prompt)).toContain("exit code: 2\\n--- stdout ---\\nhello from the model\\n\\n--- stderr ---\\nwarn\\n");
    const read = await runtime.resources.resolve("workspace:///home/workspace/hello.txt");
    expect(read.type === "text" && read.text).toBe("hello from the model\n");
  });

  it("WS-2 QA-5 an invalid mount fails the runtime's creation before any directory is created", async () => {
    kernel = await startKernel({ bob: { model: "mock:m", channels: { "mock:bot": ["*"] }, extends: { workspace: { config: { mounts: ["made:/data", "other:/data/inner"] } } } } });
    await until(() => kernel!.app.ishiki.profile("bob")?.status === "active");
    await expect(kernel.app.ishiki.runtime("bob", channel)).rejects.toThrow(/nests with the mount "made:\/data"/);
    await expect(readFile(join(kernel.dir, "profiles", "bob", "made"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("WS-18 shared skills under <dataPath>/skills appear in the runtime's instructions", async () => {
    kernel = await startKernel(
      { carol: { model: "mock:m", channels: { "mock:bot": ["*"] }, extends: { workspace: {} } } },
      [{ calls: [{ id: "f1", name: "finish" }] }],
      async (dir) => {
        await mkdir(join(dir, "skills", "greeting"), { recursive: true });
        await writeFile(join(dir, "skills", "greeting", "SKILL.md"), "---\nname: greeting\ndescription: Greet people warmly\n---\nSay hello.\n");
      },
    );
    await until(() => kernel!.app.ishiki.profile("carol")?.status === "active");
    const runtime = await kernel.app.ishiki.runtime("carol", channel);
    runtime.wake();
    await until(() => kernel!.model.prompts.length >= 1);
    await runtime.agent.wait();
    expect(JSON.stringify(kernel.model.prompts[0].prompt)).toContain("- greeting: Greet people warmly (/home/skills/greeting)");
    const skill = await runtime.resources.resolve("skill://greeting");
    expect(skill.type === "text" && skill.text).toContain("Say hello.");
  });
});
