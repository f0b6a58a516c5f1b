import { afterEach, describe, expect, it, vi } from "vitest";
import { startMockKernel, until, type MockKernel } from "./koishi-app.js";

// A build whose QuickJS cannot load: the loader fails as it would with a missing or broken WASM file.
vi.mock("../src/codemode/quickjs-load.js", () => ({
  checkQuickJSLoads: () => Promise.reject(new Error("codemode: QuickJS cannot load: wasm file missing")),
}));

let kernel: MockKernel | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

describe("start-up isolation (KP-39)", () => {
  it("KP-39 when QuickJS cannot load, only the profiles with codemode fail activation", async () => {
    kernel = await startMockKernel({
      profiles: {
        coder: { model: "mock:m", channels: { "mock:bot": ["g1"] }, codemode: { enable: true } },
        plain: { model: "mock:m", channels: { "mock:bot": ["g2"] } },
      },
    });
    await until(() => kernel!.app.ishiki.profile("plain")?.status === "active");
    expect(kernel.app.ishiki.profile("coder")?.status).toBe("failed");
    expect(kernel.logged("[coder] activation failed: codemode: QuickJS cannot load: wasm file missing")).toBe(true);
    const domain = { mode: "channel" as const, platform: "mock", selfId: "bot", channelId: "g1", isDirect: false };
    await expect(kernel.app.ishiki.runtime("coder", domain)).rejects.toThrow("[coder] profile is failed");
  });
});
