import { describe, expect, it } from "vitest";
import { createEntry, createUserMessage } from "@yesimagent/core";
import type { ContextEngineInstance } from "../engines/index.js";
import { sinceLastReset } from "./context-reset.js";
import { createRuntimePlugin } from "./runtime-plugin.js";

describe("ishiki.reset in the history a context engine gets (issue 22)", () => {
  it("only entries after the latest reset; the same array when there is none", () => {
    const entries = [createEntry("message", createUserMessage("a")), createEntry("ishiki.reset", {}), createEntry("message", createUserMessage("b")), createEntry("ishiki.reset", { by: "mock:u" }), createEntry("message", createUserMessage("c"))];
    expect(sinceLastReset(entries)).toEqual({ entries: entries.slice(4), cut: 4 });
    const plain = entries.slice(0, 1);
    expect(sinceLastReset(plain).entries).toBe(plain);
    expect(sinceLastReset(plain).cut).toBe(0);
    expect(sinceLastReset(entries.slice(0, 4))).toEqual({ entries: [], cut: 4 });
  });
});

describe("ishiki.reset under the runtime's retention (issues 19 and 22)", () => {
  it("the context engine learns the stream position of the slice it is handed", async () => {
    const seen: Array<{ count: number; offset: number | undefined }> = [];
    const context: ContextEngineInstance = {
      prepareEntries(entries, request) {
        seen.push({ count: entries.length, offset: request.offset });
        return entries;
      },
    };
    const plugin = createRuntimePlugin({ context, cross: false, instructions: async () => "", tools: async () => ({}), model: {} as never, agent: () => ({}) as never });
    const retained = [createEntry("message", createUserMessage("a")), createEntry("ishiki.reset", {}), createEntry("message", createUserMessage("b")), createEntry("message", createUserMessage("c"))];
    const request = { turnId: "t", signal: new AbortController().signal, offset: 100 };
    await plugin.transformEntries!(retained, request);
    await plugin.transformEntries!(retained.slice(2), { ...request, offset: 102 });
    // Positions are absolute: "b" is entry 102 of the stream whether or not the reset is still in memory.
    expect(seen).toEqual([{ count: 2, offset: 102 }, { count: 2, offset: 102 }]);
  });
});
