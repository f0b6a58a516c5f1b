import { tool, type ToolSet } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolIndexRegistry, type SharedToolIndex } from "./shared-tool-index.js";
import type { ToolDocument } from "./tool-document.js";
import { ToolSearch } from "./tool-search.js";

const none = new Set<string>();

// Every runtime builds its own tool objects, as extensions do; only their content is equal.
function tools(extra: ToolSet = {}): ToolSet {
  return {
    read: tool({ description: "Read a resource URL.", inputSchema: z.object({ url: z.string() }) }),
    write_note: tool({ description: "Write a note to the notebook.", inputSchema: z.object({ text: z.string() }) }),
    mute_member: tool({ description: "Mute a group member.", inputSchema: z.object({ userId: z.string() }) }),
    ...extra,
  };
}

const names = (search: ToolSearch, query: string) => search.search(query, none).tools.map((hit) => hit.name);

describe("issue 19: one index per distinct document set, shared by runtimes", () => {
  it("runtimes with equal tools share one index; the last release drops it", async () => {
    const registry = new ToolIndexRegistry();
    const runtimes = Array.from({ length: 50 }, () => new ToolSearch({ codemode: false, indexes: registry }));
    for (const search of runtimes) await search.sync(tools());
    expect(registry.size).toBe(1);
    expect(names(runtimes[17], "note")).toEqual(["write_note"]);
    for (const search of runtimes.slice(1)) search.close();
    expect(registry.size).toBe(1);
    runtimes[0].close();
    expect(registry.size).toBe(0);
    expect(runtimes[0].deferred).toEqual([]);
  });

  it("a runtime whose tools change moves to another index and leaves the shared one untouched", async () => {
    const registry = new ToolIndexRegistry();
    const [a, b] = [new ToolSearch({ codemode: false, indexes: registry }), new ToolSearch({ codemode: false, indexes: registry })];
    await a.sync(tools());
    await b.sync(tools());
    await b.sync(tools({ git_commit: tool({ description: "Record changes to the repository.", inputSchema: z.object({ message: z.string() }) }) }));
    expect(registry.size).toBe(2);
    expect(names(a, "repository commit")).toEqual([]);
    expect(names(b, "repository commit")).toEqual(["git_commit"]);
    // Back to the common set: the two share again and b's own index is gone.
    await b.sync(tools());
    expect(registry.size).toBe(1);
    expect(names(b, "repository commit")).toEqual([]);
  });

  it("a sole holder's index changes in place under its new key", async () => {
    const registry = new ToolIndexRegistry();
    const search = new ToolSearch({ codemode: false, indexes: registry });
    await search.sync(tools());
    await search.sync({ mute_member: tool({ description: "Silence a member of the group.", inputSchema: z.object({ userId: z.string() }) }) });
    expect(registry.size).toBe(1);
    expect(search.deferred).toEqual(["mute_member"]);
    expect(names(search, "silence")).toEqual(["mute_member"]);
  });

  it("discovered sets stay per runtime over the shared index", async () => {
    const registry = new ToolIndexRegistry();
    const [a, b] = [new ToolSearch({ codemode: false, indexes: registry }), new ToolSearch({ codemode: false, indexes: registry })];
    await a.sync(tools());
    await b.sync(tools());
    expect(a.search("note", new Set(["write_note"])).tools[0].status).toBe("available");
    expect(b.search("note", none).tools[0].status).toBe("new");
  });

  it("sets are told apart by content, not by order or object identity", async () => {
    const registry = new ToolIndexRegistry();
    const make = (description: string, param: string): ToolSet => ({
      y: tool({ description: "Y.", inputSchema: z.object({}) }),
      x: tool({ description, inputSchema: z.object({ [param]: z.string() }) }),
    });
    const searches = Array.from({ length: 4 }, () => new ToolSearch({ codemode: false, indexes: registry }));
    await searches[0].sync(make("X.", "a"));
    await searches[1].sync(Object.fromEntries(Object.entries(make("X.", "a")).reverse()));
    expect(registry.size).toBe(1);
    await searches[2].sync(make("X!", "a"));
    await searches[3].sync(make("X.", "b"));
    expect(registry.size).toBe(3);
  });

  it("a runtime whose tools read as a shared index's documents joins it without building documents of its own", async () => {
    // Every build of documents ends in `update`; a joining runtime checks its tools against the shared ones instead.
    class CountingRegistry extends ToolIndexRegistry {
      builds = 0;
      override update(previous: SharedToolIndex | undefined, documents: readonly ToolDocument[]): SharedToolIndex {
        this.builds++;
        return super.update(previous, documents);
      }
    }
    const registry = new CountingRegistry();
    const runtimes = Array.from({ length: 50 }, () => new ToolSearch({ codemode: false, indexes: registry }));
    for (const search of runtimes) await search.sync(tools());
    expect(registry.builds).toBe(1);
    expect(registry.size).toBe(1);
    expect(names(runtimes[49], "mute")).toEqual(["mute_member"]);
    // Content that differs anywhere (a nested parameter here) is built and filed apart; the shared index is untouched.
    const nested = tools({ mute_member: tool({ description: "Mute a group member.", inputSchema: z.object({ userId: z.string(), until: z.object({ minutes: z.number() }) }) }) });
    await runtimes[49].sync(nested);
    expect(registry.builds).toBe(2);
    expect(registry.size).toBe(2);
    expect(names(runtimes[49], "minutes")).toEqual(["mute_member"]);
    expect(names(runtimes[0], "minutes")).toEqual([]);
    for (const search of runtimes) search.close();
    expect(registry.size).toBe(0);
  });
});
