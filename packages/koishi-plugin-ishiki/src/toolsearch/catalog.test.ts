import { describe, expect, it } from "vitest";
import type { CatalogData } from "./catalog-data.js";
import { catalogsSinceBaseline, discoveredTools, foldCatalogs, isCatalogData } from "./catalog-fold.js";
import { firstSentence } from "./catalog-text.js";
import { catalogUpdate, type CatalogUpdateInput } from "./catalog-update.js";

const descriptions: Record<string, string> = {
  read: "Read a resource URL. Text comes back in pages.",
  send_message: "Send a message to the current channel.",
  finish: "End the turn.",
  wait: "Wait for new messages.",
  search: "Find more tools.",
  codemode: "Run a JavaScript program.",
  write_file: "Write text to a file in the workspace, replacing its content. Parent directories are created.",
  bash: "Run a bash command in the sandbox.\nShell state does not persist.",
  notebook_add: "记一条笔记：把内容保存到笔记本。可以附带标签。",
};
const signatures: Record<string, string> = {
  read: '/** Read a resource URL. */\ndeclare function read(input: { url: string }): Promise<unknown>;',
  send_message: "/** Send a message. */\ndeclare function send_message(input: { content: string }): Promise<unknown>;",
  write_file: "/** Write a file. */\ndeclare function write_file(input: { path: string; content: string }): Promise<{ ok: true; bytes: number }>;",
};

function input(overrides: Partial<CatalogUpdateInput>): CatalogUpdateInput {
  return {
    previous: undefined,
    visible: [],
    mode: "direct",
    describe: (name) => descriptions[name],
    signature: (name) => signatures[name],
    ...overrides,
  };
}

describe("catalog messages (CT-31 .. CT-33)", () => {
  it("CT-32 CT-33 direct baseline: exact text and data", () => {
    const data = catalogUpdate(input({ visible: ["read", "send_message", "finish", "wait", "search"] }));
    expect(data).toEqual({
      version: 1,
      kind: "baseline",
      mode: "direct",
      added: ["read", "send_message", "finish", "wait", "search"].map((name) => ({ name, description: descriptions[name] })),
      removed: [],
      visible: ["read", "send_message", "finish", "wait", "search"],
      text: "Tool catalog (baseline). Callable directly: read, send_message, finish, wait, search. Use search to find more tools.",
    });
  });

  it("CT-32 direct delta lists added tools with their first sentence", () => {
    const previous = { mode: "direct" as const, visible: ["read", "search"] };
    const data = catalogUpdate(input({ previous, visible: ["read", "search", "write_file", "bash", "notebook_add"] }));
    expect(data?.kind).toBe("delta");
    expect(data?.removed).toEqual([]);
    expect(data?.text).toBe(
      "Tool catalog update: +3 \u22120.\n" +
        "write_file \u2014 Write text to a file in the workspace, replacing its content.\n" +
        "bash \u2014 Run a bash command in the sandbox.\n" +
        "notebook_add \u2014 记一条笔记：把内容保存到笔记本。",
    );
  });

  it("CT-32 direct delta with removals adds the removal line, and only then", () => {
    const previous = { mode: "direct" as const, visible: ["read", "search", "bash", "write_file"] };
    const removedOnly = catalogUpdate(input({ previous, visible: ["read", "search"] }));
    expect(removedOnly?.text).toBe("Tool catalog update: +0 \u22122.\nNo longer available: bash, write_file.");
    expect(removedOnly?.added).toEqual([]);
    expect(removedOnly?.removed).toEqual(["bash", "write_file"]);
    const both = catalogUpdate(input({ previous, visible: ["read", "search", "bash", "notebook_add"] }));
    expect(both?.text).toBe("Tool catalog update: +1 \u22121.\nnotebook_add \u2014 记一条笔记：把内容保存到笔记本。\nNo longer available: write_file.");
  });

  it("CT-32 codemode baseline: exact text with the TypeScript block", () => {
    const data = catalogUpdate(input({ mode: "codemode", visible: ["read", "send_message"] }));
    expect(data?.text).toBe(
      "Code mode capability update (baseline; replaces earlier updates). Callable inside codemode programs as " +
        "await tools.<name>(input):\n" +
        "```ts\n" +
        signatures.read +
        "\n\n" +
        signatures.send_message +
        "\n```",
    );
    expect(data?.added).toEqual([
      { name: "read", description: descriptions.read, signature: signatures.read },
      { name: "send_message", description: descriptions.send_message, signature: signatures.send_message },
    ]);
  });

  it("CT-32 codemode delta: added block and removal line", () => {
    const previous = { mode: "codemode" as const, visible: ["read", "send_message", "bash"] };
    const data = catalogUpdate(input({ mode: "codemode", previous, visible: ["read", "send_message", "write_file"] }));
    expect(data?.text).toBe(
      "Code mode capability update: +1 \u22121. Callable inside codemode programs as await tools.<name>(input):\n```ts\n" + signatures.write_file + "\n```\nNo longer callable: bash.",
    );
    const removedOnly = catalogUpdate(input({ mode: "codemode", previous, visible: ["read", "send_message"] }));
    expect(removedOnly?.text).toBe("Code mode capability update: +0 \u22121.\nNo longer callable: bash.");
  });

  it("CT-33 a tool without a generated signature gets an untyped declaration with its description", () => {
    const data = catalogUpdate(input({ mode: "codemode", previous: { mode: "codemode", visible: [] }, visible: ["bash"] }));
    expect(data?.added[0].signature).toBe(
      "/** Run a bash command in the sandbox.\nShell state does not persist. */\ndeclare function bash(input: unknown): Promise<unknown>;",
    );
  });

  it("CT-30 an unchanged visible set writes nothing, whatever the order", () => {
    const previous = { mode: "direct" as const, visible: ["read", "bash"] };
    expect(catalogUpdate(input({ previous, visible: ["bash", "read"] }))).toBeUndefined();
  });

  it("CT-31 a mode change since the last catalog writes a baseline in the new mode", () => {
    const data = catalogUpdate(input({ mode: "codemode", previous: { mode: "direct", visible: ["read"] }, visible: ["read"] }));
    expect(data?.kind).toBe("baseline");
    expect(data?.mode).toBe("codemode");
  });

  it("CT-32 first sentences end at . ! ? or their CJK forms, and stop at a line break", () => {
    expect(firstSentence("Fetch a URL. Then parse it.")).toBe("Fetch a URL.");
    expect(firstSentence("Version 1.2 is here")).toBe("Version 1.2 is here");
    expect(firstSentence("发送群消息。支持 CQ 码")).toBe("发送群消息。");
    expect(firstSentence("First line\nsecond line.")).toBe("First line");
    expect(firstSentence("x".repeat(300))).toHaveLength(200);
  });
});

describe("catalog fold (CT-31, CT-34)", () => {
  function chain(): CatalogData[] {
    const describe = (name: string) => descriptions[name];
    const baseline = catalogUpdate({ previous: undefined, visible: ["read", "search"], mode: "direct", describe })!;
    const first = catalogUpdate({ previous: foldCatalogs([baseline]), visible: ["read", "search", "bash"], mode: "direct", describe })!;
    const second = catalogUpdate({ previous: foldCatalogs([baseline, first]), visible: ["read", "search", "bash", "write_file"], mode: "direct", describe })!;
    return [baseline, first, second];
  }

  it("CT-31 folding persisted catalogs restores the visible and discovered sets", () => {
    const state = foldCatalogs(chain());
    expect(state).toEqual({ mode: "direct", visible: ["read", "search", "bash", "write_file"] });
    expect([...discoveredTools(state, new Set(["read", "search", "finish"]))]).toEqual(["bash", "write_file"]);
  });

  it("CT-31 with no catalogs the fold is empty, so a baseline is written; with catalogs and no change, nothing", () => {
    expect(foldCatalogs([])).toBeUndefined();
    expect(catalogUpdate(input({ previous: foldCatalogs([]), visible: ["read"] }))?.kind).toBe("baseline");
    const catalogs = chain();
    expect(catalogUpdate(input({ previous: foldCatalogs(catalogs), visible: ["read", "search", "bash", "write_file"] }))).toBeUndefined();
    expect(catalogUpdate(input({ previous: foldCatalogs(catalogs), visible: ["read", "search", "bash"] }))?.kind).toBe("delta");
  });

  it("CT-31 unreadable entries are skipped", () => {
    const catalogs = [...chain(), { version: 2, kind: "baseline", mode: "direct", visible: [], text: "" }, null, "x"];
    expect(isCatalogData(catalogs[3])).toBe(false);
    expect(foldCatalogs(catalogs)?.visible).toEqual(["read", "search", "bash", "write_file"]);
  });

  it("CT-31 a later baseline replaces everything before it", () => {
    const catalogs = chain();
    const rebase = catalogUpdate(input({ mode: "codemode", previous: foldCatalogs(catalogs), visible: ["read"] }))!;
    expect(foldCatalogs([...catalogs, rebase])).toEqual({ mode: "codemode", visible: ["read"] });
  });

  it("CT-34 the latest baseline and every later catalog are what a context needs", () => {
    const catalogs = chain();
    expect(catalogsSinceBaseline(catalogs)).toEqual(catalogs);
    const rebase = catalogUpdate(input({ mode: "codemode", previous: foldCatalogs(catalogs), visible: ["read"] }))!;
    expect(catalogsSinceBaseline([...catalogs, rebase])).toEqual([rebase]);
    expect(catalogsSinceBaseline(catalogs.slice(1))).toEqual([]);
  });
});
