import { afterEach, describe, expect, it } from "vitest";
import NoteExtension from "../src/note.js";
import { RhythmWakeupEngine } from "../src/rhythm.js";
import { channel, startKernel, until, type TestKernel } from "./kernel.js";

let kernel: TestKernel | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

describe("XA-30 waiting and XA-29 RhythmWakeupEngine", () => {
  it("XA-21 XA-30 the profile waits while the note service is missing, activates when it appears, waits again when it goes", async () => {
    kernel = await startKernel({
      profiles: { notes: { model: "scripted:model", channels: { "mock:bot": ["*"] }, extends: { note: {} } } },
      replies: [{ calls: [{ name: "finish" }] }],
    });
    const waitingLine = "[notes] missing required service ishiki.ext.note; profile is waiting (check the name if the plugin is installed)";
    await until(() => kernel!.logs.some(([, line]) => line.includes(waitingLine)));
    expect(kernel.app.ishiki.profile("notes")?.status).toBe("waiting");
    await expect(kernel.app.ishiki.runtime("notes", channel)).rejects.toThrow("[notes] profile is waiting");

    const fork = kernel.app.plugin(NoteExtension);
    await until(() => kernel!.app.ishiki.profile("notes")?.status === "active");
    const runtime = await kernel.app.ishiki.runtime("notes", channel);
    expect(runtime.id).toBe("notes/mock:bot/c1");

    fork.dispose();
    await until(() => kernel!.app.ishiki.profile("notes")?.status === "waiting");
    await until(() => kernel!.logs.filter(([, line]) => line.includes(waitingLine)).length === 2);
    expect(kernel.app.ishiki.profile("notes")?.runtimeIds()).toEqual([]);

    kernel.app.plugin(NoteExtension);
    await until(() => kernel!.app.ishiki.profile("notes")?.status === "active");
    const rebuilt = await kernel.app.ishiki.runtime("notes", channel);
    expect(rebuilt).not.toBe(runtime);
    expect(rebuilt.id).toBe(runtime.id);
  });

  it("XA-29 RhythmWakeupEngine continues every everySeconds while idle and its disposer clears the timer", async () => {
    kernel = await startKernel({
      plugins: (app) => app.plugin(RhythmWakeupEngine),
      profiles: { beat: { model: "scripted:model", channels: { "mock:bot": ["*"] }, wakeup: { engine: "rhythm", rhythm: { everySeconds: 1 } } } },
      replies: [{ calls: [{ name: "finish" }] }],
    });
    await until(() => kernel!.app.ishiki.profile("beat")?.status === "active");
    const runtime = await kernel.app.ishiki.runtime("beat", channel);
    await until(() => kernel!.calls.length >= 1, 2500);
    await runtime.agent.wait();
    await runtime.stop();
    const after = kernel.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(kernel.calls.length).toBe(after);
  });
});
