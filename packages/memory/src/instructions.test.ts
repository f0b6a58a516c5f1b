import { describe, expect, it } from "vitest";
import { memorySection, SECTION_HEADER } from "./instructions.js";
import type { MemoryRecord } from "./store/memory-record.js";

const at = new Date(0);
const memory = (id: number, text: string): MemoryRecord => ({
  id, profile: "p", scope: "person", subject: "mock:u1", label: "", text, source: "", origin: "", createdAt: at, updatedAt: at, embedding: null, embeddingModel: "",
});

describe("the memory section of the instructions", () => {
  it("lists the channel, then active people, then the profile, newest first, with whitespace folded", () => {
    const section = memorySection(
      { channel: { title: "mock:g1", memories: [memory(5, "werewolf on Saturdays")] }, people: [{ title: "小林(u1)", memories: [memory(4, "likes\n durian"), memory(2, "works in Hangzhou")] }], profile: [memory(1, "the bot is called Ishi")], elsewhere: 0 },
      10_000,
    );
    expect(section).toBe(`${SECTION_HEADER}\n### This channel (mock:g1)\n- [5] werewolf on Saturdays\n### 小林(u1)\n- [4] likes durian\n- [2] works in Hangzhou\n### Everyone (profile)\n- [1] the bot is called Ishi`);
  });

  it("never exceeds its budget and counts what it leaves out; too small a budget or nothing to show gives no section", () => {
    const many = Array.from({ length: 50 }, (_, index) => memory(100 - index, `memory number ${index} `.repeat(3)));
    for (const budget of [SECTION_HEADER.length + 40, 600, 900, 1500]) {
      const section = memorySection({ people: [{ title: "u1", memories: many }], profile: [], elsewhere: 7 }, budget);
      expect(section.length).toBeLessThanOrEqual(budget);
      if (section !== "") expect(section).toMatch(/\n\(\d+ more: memory_search\)$/);
    }
    const cut = memorySection({ people: [{ title: "u1", memories: many }], profile: [], elsewhere: 7 }, 900);
    const shown = cut.split("\n").filter((line) => line.startsWith("- [")).length;
    expect(cut.endsWith(`(${50 + 7 - shown} more: memory_search)`)).toBe(true);
    expect(memorySection({ people: [{ title: "u1", memories: many }], profile: [], elsewhere: 0 }, SECTION_HEADER.length - 1)).toBe("");
    expect(memorySection({ people: [{ title: "u1", memories: [] }], profile: [], elsewhere: 3 }, 5000)).toBe("");
  });
});
