import { jsonSchema, tool, type ToolSet } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SEARCH_NO_MATCH_NOTE, searchOutputSchema } from "./search-contract.js";
import { ToolSearch } from "./tool-search.js";

const none = new Set<string>();

// A bot's tool surface: kernel tools, workspace tools, MCP tools and Koishi plugin tools described in Chinese.
function toolSet(): ToolSet {
  return {
    read: tool({ description: "Read a resource URL.", inputSchema: z.object({ url: z.string() }) }),
    send_message: tool({ description: "Send a message to the channel.", inputSchema: z.object({ content: z.string() }) }),
    finish: tool({ description: "End the turn.", inputSchema: z.object({}) }),
    bash: tool({ description: "Run a bash command in the sandbox.", inputSchema: z.object({ command: z.string() }) }),
    read_file: tool({ description: "Read a UTF-8 text file from the workspace.", inputSchema: z.object({ path: z.string() }) }),
    write_file: tool({
      description: "Write text to a file in the workspace, replacing its content.",
      inputSchema: z.object({ path: z.string(), content: z.string() }),
    }),
    edit_file: tool({
      description: "Replace an exact string in a file.",
      inputSchema: z.object({ path: z.string(), old_string: z.string(), new_string: z.string() }),
    }),
    save_text_file: tool({
      description: "把文本内容写入机器人数据目录下的文件，文件不存在时自动创建。",
      inputSchema: z.object({ filename: z.string(), text: z.string() }),
    }),
    notebook_add: tool({ description: "记一条笔记：把用户要求记住的内容保存到笔记本。", inputSchema: z.object({ content: z.string() }) }),
    schedule_reminder: tool({
      description: "设置定时提醒，到时间在频道里发送提醒消息。",
      inputSchema: jsonSchema({ type: "object", properties: { time: { type: "string" }, channelId: { type: "string" } } }),
    }),
    "memory-create_entities": tool({
      description: "Create multiple new entities in the knowledge graph",
      inputSchema: jsonSchema({
        type: "object",
        properties: { entities: { type: "array", items: { type: "object", properties: { name: {}, entityType: {} } } } },
      }),
    }),
    "time-get_current_time": tool({ description: "Get current time in a specific timezones", inputSchema: z.object({ timezone: z.string() }) }),
  };
}

async function search(options: { resident?: string[]; maxResults?: number } = {}): Promise<ToolSearch> {
  const search = new ToolSearch({ codemode: false, ...options });
  await search.sync(toolSet());
  return search;
}

const names = (output: { tools: Array<{ name: string }> }) => output.tools.map((t) => t.name);

describe("toolsearch retrieval (CT-22, CT-23, CT-25)", () => {
  it("CT-25 写文件 finds the tool described in Chinese as writing files", async () => {
    expect(names((await search()).search("写文件", none))).toContain("save_text_file");
  });

  it("CT-25 笔记 finds the tool described in Chinese as taking notes", async () => {
    expect(names((await search()).search("笔记", none))[0]).toBe("notebook_add");
  });

  it.each(["writeFile", "write-file", "write_file"])("CT-25 %s finds write_file first", async (query) => {
    expect(names((await search()).search(query, none))[0]).toBe("write_file");
  });

  it("CT-25 channelId finds the tool taking it", async () => {
    expect(names((await search()).search("channelId", none))[0]).toBe("schedule_reminder");
  });

  it("CT-23 parameter names nested in arrays are searchable", async () => {
    expect(names((await search()).search("entityType", none))[0]).toBe("memory-create_entities");
  });

  it("CT-24 ASCII terms of 3+ characters match as prefixes, shorter ones do not", async () => {
    const tools = await search();
    expect(names(tools.search("timez", none))).toContain("time-get_current_time");
    expect(names(tools.search("ti", none))).toEqual([]);
  });

  it("CT-24 there is no fuzzy matching", async () => {
    expect(names((await search()).search("bsah", none))).toEqual([]);
  });

  it("CT-24 OR semantics: one matching word is enough", async () => {
    expect(names((await search()).search("bash zebra unicorn", none))).toEqual(["bash"]);
  });

  it("CT-23 an exact name match ranks first even when others score higher", async () => {
    // "file" is in the names and descriptions of several tools; only `read_file` equals a query word.
    expect(names((await search()).search("file file text read_file", none))[0]).toBe("read_file");
  });

  it("CT-23 ties break by name", async () => {
    const tools = new ToolSearch({ codemode: false });
    const same = { description: "Rotate the widget.", inputSchema: z.object({}) };
    await tools.sync({ zeta_tool: tool(same), alpha_tool: tool(same), mid_tool: tool(same) });
    expect(names(tools.search("rotate widget", none))).toEqual(["alpha_tool", "mid_tool", "zeta_tool"]);
  });

  it("CT-21 CT-23 only deferred tools are candidates", async () => {
    const tools = await search({ resident: ["bash"] });
    expect(names(tools.search("read", none))).not.toContain("read");
    expect(names(tools.search("send message", none))).not.toContain("send_message");
    expect(names(tools.search("bash", none))).toEqual([]);
    expect(tools.deferred).not.toContain("finish");
  });

  it("CT-23 discovered tools are reported available, others new", async () => {
    const output = (await search()).search("file", new Set(["write_file"]));
    const status = Object.fromEntries(output.tools.map((t) => [t.name, t.status]));
    expect(status.write_file).toBe("available");
    expect(status.read_file).toBe("new");
  });

  it("CT-21 maxResults caps the hits", async () => {
    expect((await search({ maxResults: 20 })).search("file content time", none).tools.length).toBeGreaterThan(5);
    expect((await search()).search("file content time", none).tools.length).toBe(5);
    expect((await search({ maxResults: 2 })).search("file content time", none).tools.length).toBe(2);
  });

  it("CT-22 hits carry name, description and status and match the output schema", async () => {
    const output = (await search()).search("bash", none);
    expect(output).toEqual({ tools: [{ name: "bash", description: "Run a bash command in the sandbox.", status: "new" }] });
    expect(searchOutputSchema.parse(output)).toEqual(output);
  });

  it("CT-22 an empty result carries the exact note", async () => {
    const output = (await search()).search("zebra", none);
    expect(output).toEqual({ tools: [], note: SEARCH_NO_MATCH_NOTE });
    expect(output.note).toBe("No matching tools. Try other words (English or Chinese), a tool name, or a parameter name.");
  });
});

describe("toolsearch pool sync (CT-23, CT-28)", () => {
  it("CT-28 tools that vanish from the tool set leave the pool; new ones join it", async () => {
    const tools = await search();
    const next = toolSet();
    delete next.bash;
    next.git_commit = tool({ description: "Record changes to the repository.", inputSchema: z.object({ message: z.string() }) });
    await tools.sync(next);
    expect(names(tools.search("bash", none))).toEqual([]);
    expect(names(tools.search("commit", none))).toEqual(["git_commit"]);
    expect(tools.deferred).toContain("git_commit");
    expect(tools.deferred).not.toContain("bash");
  });

  it("CT-23 a tool whose description changed is re-indexed", async () => {
    const tools = await search();
    const next = toolSet();
    next.bash = tool({ description: "Execute a zsh script.", inputSchema: z.object({ command: z.string() }) });
    await tools.sync(next);
    expect(names(tools.search("zsh", none))).toEqual(["bash"]);
    expect(tools.search("bash", none).tools[0].description).toBe("Execute a zsh script.");
  });

  it("CT-23 lazy JSON Schemas are read before sync resolves", async () => {
    const tools = new ToolSearch({ codemode: false });
    const lazy = jsonSchema(async () => ({ type: "object" as const, properties: { repo_path: { type: "string" as const } } }));
    await tools.sync({ "git-git_status": tool({ description: "Shows the working tree status", inputSchema: lazy }) });
    expect(names(tools.search("repo_path", none))).toEqual(["git-git_status"]);
  });

  it("CT-28 a slow schema of an earlier sync does not revive a tool a later sync removed", async () => {
    const tools = new ToolSearch({ codemode: false });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = jsonSchema(async () => {
      await gate;
      return { type: "object" as const, properties: { q: { type: "string" as const } } };
    });
    const first = tools.sync({ slow_tool: tool({ description: "Slow lookup.", inputSchema: slow }) });
    await tools.sync({});
    release();
    await first;
    expect(tools.deferred).toEqual([]);
  });

  it("CT-21 with codemode on, codemode is resident", async () => {
    const tools = new ToolSearch({ codemode: true });
    await tools.sync({ codemode: tool({ description: "Run a JavaScript program.", inputSchema: z.object({ js: z.string() }) }) });
    expect(tools.deferred).toEqual([]);
  });
});

describe("query widening and stop words (decided here, beyond CT-24)", () => {
  it("CT-24 a Chinese query reaches English descriptions through the glossary", async () => {
    expect(names((await search()).search("读取文件", none)).slice(0, 2)).toContain("read_file");
  });

  it("CT-24 an English query reaches Chinese descriptions through the glossary", async () => {
    const tools = new ToolSearch({ codemode: false });
    await tools.sync({
      onebot_set_group_ban: tool({ description: "群组单人禁言。", inputSchema: z.object({ group_id: z.number() }) }),
      weather_query: tool({ description: "查询城市天气。", inputSchema: z.object({ city: z.string() }) }),
    });
    expect(names(tools.search("mute someone", none))).toEqual(["onebot_set_group_ban"]);
  });

  it("CT-24 widened terms weigh less than the query's own words", async () => {
    const tools = new ToolSearch({ codemode: false });
    await tools.sync({
      beta: tool({ description: "Upload a file.", inputSchema: z.object({}) }),
      alpha: tool({ description: "上传文件。", inputSchema: z.object({}) }),
    });
    // Both match: one on its own words, the other through the glossary; the own-language match ranks first.
    expect(names(tools.search("上传文件", none))).toEqual(["alpha", "beta"]);
    expect(names(tools.search("upload file", none))).toEqual(["beta", "alpha"]);
  });

  it("CT-24 English function words do not match descriptions unless the query has nothing else", async () => {
    const tools = new ToolSearch({ codemode: false });
    await tools.sync({
      relate: tool({ description: "Link two entities.", inputSchema: jsonSchema({ type: "object", properties: { from: {}, to: {} } }) }),
      other: tool({ description: "Move the cursor to the end of the line.", inputSchema: z.object({}) }),
    });
    expect(names(tools.search("the cursor", none))).toEqual(["other"]);
    expect(names(tools.search("from to", none))).toEqual(["relate"]);
  });
});

describe("toolsearch sync errors (QA-1)", () => {
  it("CT-23 a lazy schema that fails names the tool in one line", async () => {
    const tools = new ToolSearch({ codemode: false });
    const broken = jsonSchema(async () => {
      throw new Error("server went away");
    });
    await expect(tools.sync({ "git-git_log": tool({ description: "Shows the commit logs", inputSchema: broken }) })).rejects.toThrow(
      'toolsearch: cannot read the input schema of "git-git_log": server went away',
    );
  });
});
