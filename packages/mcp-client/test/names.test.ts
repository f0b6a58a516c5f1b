import { describe, expect, it } from "vitest";
import { exposedToolNames, foldToolName, MAX_TOOL_NAME, serverPrefix } from "../src/index.js";

describe("tool names", () => {
  it("MC-10 runs outside [A-Za-z0-9_-] fold to _, edges trimmed, empty becomes mcp", () => {
    expect(foldToolName("github-create issue")).toBe("github-create_issue");
    expect(foldToolName("my.server-read/file..now")).toBe("my_server-read_file_now");
    expect(foldToolName("--@weird tool!!")).toBe("weird_tool");
    expect(foldToolName("")).toBe("mcp");
  });

  it("MC-10 in-server collisions get _2, _3 in listing order", () => {
    expect(exposedToolNames("fs", ["read file", "read.file", "read_file", "write"])).toEqual(["fs-read_file", "fs-read_file_2", "fs-read_file_3", "fs-write"]);
  });

  it("MC-10 a Chinese server name keeps a readable, stable ASCII prefix; two Chinese names differ", () => {
    expect(serverPrefix("记忆")).toBe("Ji_Yi");
    expect(serverPrefix("文件系统")).toBe("Wen_Jian_Xi_Tong");
    expect(exposedToolNames("记忆", ["read_graph", "读取"])).toEqual(["Ji_Yi-read_graph", "Ji_Yi-Du_Qu"]);
    expect(serverPrefix("记忆")).toBe(serverPrefix("记忆"));
    // Nothing transliterable left: a hash of the name, still one per name.
    expect(serverPrefix("!!!")).toMatch(/^mcp_[0-9a-f]{6}$/);
    expect(serverPrefix("???")).not.toBe(serverPrefix("!!!"));
  });

  it("MC-10 exposed names are at most 64 characters, cut ones end in a hash of the whole, collisions stay within the cap", () => {
    const long = "a_tool_name_that_goes_on_and_on_far_beyond_what_any_provider_accepts";
    const [first, second, third] = exposedToolNames("server-everything", [long, `${long}!`, `${long}?`]);
    for (const name of [first, second, third]) expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME);
    expect(first).toMatch(/^server-everything-a_tool_name_that_goes_on_and_on_far_bey_[0-9a-f]{6}$/);
    expect(first).toHaveLength(MAX_TOOL_NAME);
    expect(second).toMatch(/_2$/);
    expect(third).toMatch(/_3$/);
    expect(new Set([first, second, third]).size).toBe(3);
    expect(exposedToolNames("server-everything", [long])).toEqual([first]);
  });
});
