import { describe, expect, it } from "vitest";
import { exposedToolNames, foldToolName } from "../src/index.js";

describe("tool names", () => {
  it("MC-10 runs outside [A-Za-z0-9_-] fold to _, edges trimmed, empty becomes mcp", () => {
    expect(foldToolName("github-create issue")).toBe("github-create_issue");
    expect(foldToolName("my.server-read/file..now")).toBe("my_server-read_file_now");
    expect(foldToolName("--@weird tool!!")).toBe("weird_tool");
    expect(foldToolName("文件-读")).toBe("mcp");
    expect(foldToolName("")).toBe("mcp");
  });

  it("MC-10 in-server collisions get _2, _3 in listing order", () => {
    expect(exposedToolNames("fs", ["read file", "read.file", "read_file", "write"])).toEqual(["fs-read_file", "fs-read_file_2", "fs-read_file_3", "fs-write"]);
    expect(exposedToolNames("", ["a", "-a"])).toEqual(["a", "a_2"]);
  });
});
