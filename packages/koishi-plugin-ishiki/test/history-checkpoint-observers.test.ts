import { describe, expect, it } from "vitest";
import { createCustomMessage, createEntry, type AgentEntry } from "@yesimagent/core";
import { AttachmentHistory } from "../src/attachments/attachment-history.js";
import { contextRetention } from "../src/engines/index.js";
import { narrativeRetention } from "../src/engines/context/narrative.js";
import { StandardContext } from "../src/engines/context/standard-instance.js";
import type { ExtensionHost } from "../src/extension/index.js";
import type { ToolSurface } from "../src/runtime/tool-surface.js";
import { ToolSurfacePlugin } from "../src/runtime/tool-surface-plugin.js";
import type { IshikiMessageCreated, IshikiToolsCatalog } from "../src/types/index.js";

const where = { platform: "qq", selfId: "bot", channelId: "g1", isDirect: false } as const;

function fact(messageId: string, content: string): AgentEntry {
  const data: IshikiMessageCreated = { timestamp: 1_700_000_000_000, ...where, messageId, content, user: { id: "u1", name: "Alice" } };
  return createEntry("message", createCustomMessage("ishiki.message.created", data));
}

function catalog(kind: IshikiToolsCatalog["kind"], visible: string[]): AgentEntry {
  const data: IshikiToolsCatalog = { version: 1, kind, mode: "direct", added: visible.map((name) => ({ name, description: name })), removed: [], visible, text: visible.join(",") };
  return createEntry("message", createCustomMessage("ishiki.tools.catalog", data));
}

/** Facts with media, a retraction, tool attachments of each lifetime, deliveries and catalogs. */
function stream(): AgentEntry[] {
  const item = (url: string, lifetime: "once" | "recent" | "retain") => ({ url, mediaType: "image/png", size: 10, lifetime, immutable: true });
  return [
    fact("f1", '<img src="asset://a1"/> look'),
    catalog("baseline", ["a", "b"]),
    createEntry("message", createCustomMessage("ishiki.attachment", { source: "tool", toolName: "t", toolCallId: "c1", items: [item("artifact://x/1", "recent"), item("artifact://x/2", "once")] })),
    createEntry("ishiki.delivery", { turnId: "t1", stepNumber: 0, items: [{ key: "tool:c1:0", url: "artifact://x/1", outcome: "shown" }] }),
    // The checkpoint falls here.
    fact("f2", '<img src="asset://a2"/>'),
    createEntry("message", createCustomMessage("ishiki.message.deleted", { timestamp: 1_700_000_000_001, ...where, messageId: "f1" })),
    catalog("delta", ["a", "b", "c"]),
    createEntry("ishiki.delivery", { turnId: "t2", stepNumber: 1, items: [{ key: "tool:c1:0", url: "artifact://x/1", outcome: "released" }] }),
  ];
}

const CUT = 4;
const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe("issue 19: the observers' part of a history checkpoint", () => {
  it("the attachments fold restored from a checkpoint, then fed the rest, equals the fold of the whole stream", () => {
    const entries = stream();
    const whole = new AttachmentHistory();
    for (const entry of entries) whole.observe(entry);
    const before = new AttachmentHistory();
    for (const entry of entries.slice(0, CUT)) before.observe(entry);
    const restored = new AttachmentHistory();
    expect(restored.restore(roundTrip(before.save()))).toBe(true);
    for (const entry of entries.slice(CUT)) restored.observe(entry);
    expect(restored.save()).toEqual(whole.save());
    expect(restored.retractedUrls.has("asset://a1")).toBe(true);
    expect(restored.state("tool:c1:0")).toEqual({ shown: true, released: true });
  });

  it("the tool catalogs restored from a checkpoint, then fed the rest, equal those of the whole stream (CT-31)", () => {
    const entries = stream();
    const plugin = () => new ToolSurfacePlugin({} as ToolSurface, () => undefined as never);
    const whole = plugin();
    for (const entry of entries) whole.observe(entry);
    const before = plugin();
    for (const entry of entries.slice(0, CUT)) before.observe(entry);
    const restored = plugin();
    expect(restored.restore(roundTrip(before.save()))).toBe(true);
    for (const entry of entries.slice(CUT)) restored.observe(entry);
    expect(restored.catalogs()).toEqual(whole.catalogs());
    expect(restored.catalogs().map((message) => message.data.kind)).toEqual(["baseline", "delta"]);
  });

  it("what is not a saved state is refused, and nothing is taken from it", () => {
    const history = new AttachmentHistory();
    expect(history.restore({ delivery: "no" })).toBe(false);
    expect(history.restore(null)).toBe(false);
    const plugin = new ToolSurfacePlugin({} as ToolSurface, () => undefined as never);
    expect(plugin.restore([{ role: "user", content: "x" }])).toBe(false);
    expect(plugin.catalogs()).toEqual([]);
  });

  it("a context engine's state is taken back only under the settings that saved it (its tail was cut by them)", () => {
    const standard = (maxTokens: number) => new StandardContext({} as ExtensionHost, { maxTokens, refillRatio: 0.5 })[contextRetention]();
    const saving = standard(1000);
    stream().forEach((entry, position) => saving.observe?.(entry, position));
    const saved = roundTrip(saving.save?.());
    expect(standard(1000).restore?.(saved)).toBe(true);
    expect(standard(2000).restore?.(saved)).toBe(false);
    expect(narrativeRetention(12).restore?.(roundTrip(narrativeRetention(12).save?.()))).toBe(true);
    expect(narrativeRetention(20).restore?.(roundTrip(narrativeRetention(12).save?.()))).toBe(false);
  });
});
