// Issue 21: the workspace extension's instance settings appear in the console's profile form (under extends), each
// field described in zh-CN and en-US, and the settings its docs show fit that form.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { documentedEntries, extensionField, label, registeredExtendsForm, shownVariant, undescribedFields } from "../../koishi-plugin-ishiki/test/form-support.js";
import { WorkspaceSettings } from "../src/settings.js";
import { startKernel, type Kernel } from "./support.js";

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

describe("issue 21: workspace in the console form", () => {
  it("registers its settings under extends, every field described, and its documented configs fit", async () => {
    kernel = await startKernel({});
    const form = registeredExtendsForm(kernel.app);
    expect(undescribedFields(form)).toEqual([]);
    const field = extensionField(form, "workspace");
    expect(field).toBeDefined();
    const settings = shownVariant(field!, {})!;
    expect(Object.keys(settings.dict!.config.dict!)).toEqual(Object.keys(WorkspaceSettings.dict!));
    expect(label(form.list!.find((part) => part.dict?.["workspace"])!)).toMatch(/workspace/);
    const documented = documentedEntries(fileURLToPath(new URL("../../../docs/workspace.md", import.meta.url)), "workspace");
    expect(documented.length).toBeGreaterThan(0);
    for (const entry of documented) {
      expect(() => field!(structuredClone(entry)), JSON.stringify(entry)).not.toThrow();
      const shown = shownVariant(field!, entry);
      expect(shown, JSON.stringify(entry)).toBeDefined();
      if (typeof entry === "object" && entry !== null) expect(() => shown!.dict!.config((entry as { config?: unknown }).config)).not.toThrow();
    }
  });
});
