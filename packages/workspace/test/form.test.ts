// Issue 21: the workspace extension's instance settings appear in the console's profile form (under extends), each
// field described in zh-CN and en-US, and the settings its docs show fit that form.
import { fileURLToPath } from "node:url";
import { afterEach, describe, it } from "vitest";
import { expectExtensionForm } from "../../koishi-plugin-ishiki/test/form-support.js";
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
    expectExtensionForm(kernel.app, "workspace", WorkspaceSettings, fileURLToPath(new URL("../../../docs/workspace.md", import.meta.url)));
  });
});
