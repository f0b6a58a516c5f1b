import type { CatalogData, CatalogTool } from "./catalog-data.js";

// The texts of spec 05 CT-32, word for word; `−` is U+2212.
const CODEMODE_BASELINE =
  "Code mode capability update (baseline; replaces earlier updates). Callable inside codemode programs as " +
  "await tools.<name>(input):";

function typescriptBlock(tools: readonly CatalogTool[]): string {
  return ["```ts", tools.map((tool) => tool.signature ?? "").join("\n\n"), "```"].join("\n");
}

const SENTENCE_END = /[.!?](?=\s|$)|[。！？]/u;
const MAX_SENTENCE = 200;

/** The first sentence of a description, on one line, for direct catalog deltas. */
export function firstSentence(description: string): string {
  const text = description.trim().split(/\r?\n/, 1)[0]?.trim() ?? "";
  const end = SENTENCE_END.exec(text);
  const sentence = end ? text.slice(0, end.index + end[0].length) : text;
  return sentence.length > MAX_SENTENCE ? `${sentence.slice(0, MAX_SENTENCE - 1)}…` : sentence;
}

/** The model-visible text of a catalog message (spec 05 CT-32). */
export function catalogText(data: Omit<CatalogData, "text">): string {
  const { kind, mode, added, removed } = data;
  if (mode === "codemode") {
    if (kind === "baseline") return [CODEMODE_BASELINE, typescriptBlock(added)].join("\n");
    const lines = [`Code mode capability update: +${added.length} \u2212${removed.length}.`];
    // Issue 20: the added tools run inside programs; a model reading only the delta must not call them directly.
    if (added.length > 0) {
      lines[0] += " Callable inside codemode programs as await tools.<name>(input):";
      lines.push(typescriptBlock(added));
    }
    if (removed.length > 0) lines.push(`No longer callable: ${removed.join(", ")}.`);
    return lines.join("\n");
  }
  if (kind === "baseline") {
    return `Tool catalog (baseline). Callable directly: ${data.visible.join(", ")}. Use search to find more tools.`;
  }
  const lines = [`Tool catalog update: +${added.length} \u2212${removed.length}.`];
  for (const tool of added) {
    const sentence = firstSentence(tool.description);
    lines.push(sentence ? `${tool.name} \u2014 ${sentence}` : tool.name);
  }
  if (removed.length > 0) lines.push(`No longer available: ${removed.join(", ")}.`);
  return lines.join("\n");
}
