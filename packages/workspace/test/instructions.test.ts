import { describe, expect, it } from "vitest";
import { workspaceInstructions, WorkspacePluginConfig, WorkspaceSettings } from "../src/index.js";

const settings = (config: Partial<WorkspaceSettings>): WorkspaceSettings => new WorkspaceSettings(config as WorkspaceSettings);

describe("configuration and instructions", () => {
  it("WS-1 instance config defaults and validation", () => {
    expect(settings({})).toEqual({
      cwd: "/home/workspace",
      timeoutMs: 30000,
      maxExecutionOutputBytes: 32 * 1024 * 1024,
      quotaBytes: 1024 * 1024 * 1024,
      network: false,
      javascript: false,
      python: false,
      skills: [],
      mounts: [],
    });
    expect(() => new WorkspaceSettings({ timeoutMs: "soon" } as never)).toThrow();
    expect(() => new WorkspaceSettings({ mounts: "data:/data" } as never)).toThrow();
    expect(new WorkspacePluginConfig({} as WorkspacePluginConfig)).toEqual({ logLevel: 2 });
  });

  it("WS-24 the Workspace section states cwd, mounts, resource mount, network, limits, shell, runtimes and tools", () => {
    const text = workspaceInstructions(
      settings({ timeoutMs: 5000, network: true, javascript: true }),
      [
        { source: "/s/a", target: "/data", readOnly: false, root: "/s/a" },
        { source: "/s/b", target: "/docs", readOnly: true, root: "/s/b" },
      ],
      [],
    );
    expect(text.startsWith("## Workspace\n")).toBe(true);
    for (const part of [
      "Working directory: /home/workspace",
      "/home/.ishiki holds stored resources, read-only",
      "Mounts: /data (read-write), /docs (read-only).",
      "Network: curl reaches public internet addresses only.",
      "Each command stops after 5000 ms with exit code 124; each output stream is capped at 32 MiB.",
      "variables, functions and cd do not persist; file changes do",
      "`js-exec` runs JavaScript/TypeScript; `python3` is off.",
      "read_file/write_file",
      "edit_file",
      'read({ url: "workspace:///home/workspace/<file>" })',
    ]) {
      expect(text).toContain(part);
    }
    expect(text).not.toContain("## Skills");
    const plain = workspaceInstructions(settings({}), [], []);
    expect(plain).toContain("Mounts: none.");
    expect(plain).toContain("Network: off (no curl).");
    expect(plain).toContain("`js-exec` is off; `python3` is off.");
  });
});
