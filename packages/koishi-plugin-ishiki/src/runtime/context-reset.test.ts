import { describe, expect, it } from "vitest";
import { createEntry, createUserMessage } from "@yesimagent/core";
import { sinceLastReset } from "./context-reset.js";

describe("ishiki.reset in the history a context engine gets (issue 22)", () => {
  it("only entries after the latest reset; the same array when there is none", () => {
    const entries = [createEntry("message", createUserMessage("a")), createEntry("ishiki.reset", {}), createEntry("message", createUserMessage("b")), createEntry("ishiki.reset", { by: "mock:u" }), createEntry("message", createUserMessage("c"))];
    expect(sinceLastReset(entries)).toEqual(entries.slice(4));
    const plain = entries.slice(0, 1);
    expect(sinceLastReset(plain)).toBe(plain);
    expect(sinceLastReset(entries.slice(0, 4))).toEqual([]);
  });
});
