// Seed 000: with image input on, the direct `read` accepts `lifetime`; the `read` inside codemode programs
// does not (04 EX-22, 03 RS-32). Programs are checked against the program-side schema, the one their
// declaration shows, not the direct tool's.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { channel, readEvents, startActive, toolOutputs, type KernelApp } from "./runtime-app.js";
import type { ScriptedReply } from "../../core/test/agent-support.js";

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

const program = (id: string, js: string): ScriptedReply => ({ calls: [{ id, name: "codemode", input: { js } }] });

describe("codemode read with image input on", () => {
  it("EX-22 RS-32 a program's read rejects lifetime, its declaration has no lifetime, and the direct read still takes it", async () => {
    const replies: ScriptedReply[] = [
      program("c1", "return await tools.read({ url: 'local://notes.txt', lifetime: 'retain' });"),
      program("c2", "const page = await tools.read({ url: 'local://notes.txt' }); return page.text;"),
      { calls: [{ id: "r1", name: "read", input: { url: "local://notes.txt", lifetime: "retain" } }] },
      { calls: [{ id: "f", name: "finish" }] },
    ];
    kernel = await startActive("p", {
      profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, codemode: { enable: true }, resources: { imageInput: true } } },
      modelInput: ["text", "image"],
      replies,
    });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    await writeFile(join(runtime.home, "notes.txt"), "TODO: one\n");
    runtime.wake();
    await runtime.agent.wait();

    const outputs = toolOutputs(await readEvents(runtime.home));
    expect(outputs[0]).toEqual({ error: expect.stringMatching(/^codemode: .*invalid input.*lifetime/s) });
    expect(outputs[1]).toBe("TODO: one\n");
    expect(JSON.stringify(outputs[2])).toContain("TODO: one");

    const tools = kernel.model.prompts[0].tools ?? [];
    const read = tools.find((entry) => entry.name === "read");
    expect(read?.type === "function" && read.inputSchema).toMatchObject({ properties: { lifetime: { enum: ["once", "recent", "retain"] } } });
    const codemode = tools.find((entry) => entry.name === "codemode");
    const description = codemode?.type === "function" ? (codemode.description ?? "") : "";
    const declaration = description.slice(description.indexOf("declare function read"), description.indexOf("declare function send_message"));
    expect(declaration).toContain("url: string");
    expect(declaration).not.toContain("lifetime");
  });
});
