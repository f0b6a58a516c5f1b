import { readFunctionBody, readJsonCalls, readToolCallBody, type BodyCall } from "./text-body.js";
import { readElementBody } from "./text-body-element.js";
import type { ToolCatalog } from "./text-catalog.js";
import { coerceQuoted } from "./text-coerce.js";
import { JsonExtent } from "./text-json-extent.js";
import { NEED, openerAt, type Opener } from "./text-scan-openers.js";

/** What the scanner reads out of model text, in order. */
export type ScanEvent =
  | { type: "text"; text: string }
  | { type: "call"; toolName: string; input: string }
  /** Markup naming a known tool that could not be read: `raw` is what the model wrote, `defect` says why. */
  | { type: "invalid"; toolName: string; raw: string; defect: string }
  /** Call markup naming no tool of the catalog: kept as text (`raw`), reported so it can be logged. */
  | { type: "unknown"; toolName: string; raw: string };

type Mode = { kind: "text" } | { kind: "body"; opener: Exclude<Opener, { form: "json" }> } | { kind: "json"; opener: Extract<Opener, { form: "json" }>; extent: JsonExtent; started: boolean; end?: number };

/** Scanned markup longer than this moves out of the live buffer, so appending a delta never copies the call. */
const SPILL_AT = 1024;

const CANDIDATE = /[<[`{]/g;

/**
 * Reads tool calls out of model text as it arrives (spec 06 EN-40), one machine for every text protocol: it
 * accepts Hermes/Qwen `<tool_call>` JSON, Qwen3-Coder `<function=…>` parameters, GLM `<arg_key>` pairs, Granite
 * `<|tool_call|>`, Mistral `[TOOL_CALLS]`, ```json fences and bare call objects, and `<tool>` elements with XML
 * or YAML parameters. Generate feeds it the whole text at once and streaming feeds it every delta, so both paths
 * decide identically; text is held back only while it may still start markup. Each push scans only new
 * characters (searches resume where they stopped), so a delta costs time proportional to its length.
 */
export class ToolMarkupScanner {
  /** The live text: from the start of the current markup (or unemitted text) to the end, minus `spill`. */
  private buffer = "";
  /** How far `buffer` has been searched in the current mode. */
  private scanned = 0;
  /**
   * The part of the current markup already searched, moved out of `buffer`: V8 flattens an appended string on
   * the next search, which would copy the whole call on every delta. Opener offsets count from the spill's start.
   */
  private spill: string[] = [];
  private spilled = 0;
  private mode: Mode = { kind: "text" };
  private readonly out: ScanEvent[] = [];

  public constructor(private readonly catalog: ToolCatalog) {}

  /** Feeds one delta; returns the events it completed. */
  public push(delta: string): ScanEvent[] {
    this.buffer += delta;
    this.run(false);
    if (this.scanned > SPILL_AT && (this.mode.kind === "body" || (this.mode.kind === "json" && this.mode.end === undefined))) {
      this.spill.push(this.buffer.slice(0, this.scanned));
      this.spilled += this.scanned;
      this.buffer = this.buffer.slice(this.scanned);
      this.scanned = 0;
    }
    return this.out.splice(0);
  }

  /** Ends the text: open markup is read as far as it goes (a call, an invalid call, or text). */
  public finish(): ScanEvent[] {
    this.run(true);
    if (this.buffer !== "") this.text(this.buffer);
    this.buffer = "";
    return this.out.splice(0);
  }

  /** Reads a whole text at once: what generate uses. */
  public static scan(text: string, catalog: ToolCatalog): ScanEvent[] {
    const scanner = new ToolMarkupScanner(catalog);
    return [...scanner.push(text), ...scanner.finish()];
  }

  private run(final: boolean): void {
    // Open markup may live wholly in the spill: at the end it must still be read, with an empty buffer.
    while (this.buffer !== "" || (final && this.mode.kind !== "text")) {
      const progressed = this.mode.kind === "text" ? this.scanText(final) : this.mode.kind === "body" ? this.scanBody(this.mode.opener, final) : this.scanJson(this.mode, final);
      if (!progressed) return;
    }
  }

  /** Emits text up to the next opener and enters it; false when it must wait for more text. */
  private scanText(final: boolean): boolean {
    CANDIDATE.lastIndex = this.scanned;
    for (let match = CANDIDATE.exec(this.buffer); match !== null; match = CANDIDATE.exec(this.buffer)) {
      const opener = openerAt(this.buffer, match.index, this.catalog, final);
      if (opener === undefined) continue;
      this.text(this.buffer.slice(0, match.index));
      this.buffer = this.buffer.slice(match.index);
      if (opener === NEED) {
        this.scanned = 0;
        return false;
      }
      const head = opener.head - match.index;
      this.mode = opener.form === "json" ? { kind: "json", opener: { ...opener, head }, extent: new JsonExtent(), started: false } : { kind: "body", opener: { ...opener, head } };
      this.scanned = head;
      return true;
    }
    this.text(this.buffer);
    this.buffer = "";
    this.scanned = 0;
    return false;
  }

  /** Searches a tagged body for its close tag, or for markup that ends it early (an orphan opener). */
  private scanBody(opener: Exclude<Opener, { form: "json" }>, final: boolean): boolean {
    let at = this.buffer.indexOf("<", this.scanned);
    while (at >= 0) {
      if (this.buffer.startsWith(opener.close, at)) {
        this.closeBody(opener, at, at + opener.close.length);
        return true;
      }
      if (!final && this.buffer.length - at < opener.close.length && opener.close.startsWith(this.buffer.slice(at))) break;
      const next = opener.form === "think" ? undefined : openerAt(this.buffer, at, this.catalog, final);
      if (next === NEED) break;
      if (next !== undefined && interrupts(opener, next, this.catalog)) {
        this.endBodyEarly(opener, at);
        return true;
      }
      at = this.buffer.indexOf("<", at + 1);
    }
    this.scanned = at >= 0 ? at : this.buffer.length;
    if (!final) return false;
    this.endBodyEarly(opener, this.buffer.length);
    return true;
  }

  private closeBody(opener: Exclude<Opener, { form: "json" }>, bodyEnd: number, end: number): void {
    const raw = this.markup(end);
    const body = raw.slice(opener.head, this.spilled + bodyEnd);
    this.advance(end);
    if (opener.form === "think") return this.text(raw);
    this.calls(this.readBody(opener, body), raw, true);
  }

  /** A body that ends without its close tag: at an orphan opener, or at the end of the text. */
  private endBodyEarly(opener: Exclude<Opener, { form: "json" }>, end: number): void {
    const raw = this.markup(end);
    const body = raw.slice(opener.head);
    if (opener.form === "empty") {
      // `<name/>` with no `</name>` after it: a call without parameters; what followed is ordinary text.
      this.buffer = raw.slice(opener.head) + this.buffer.slice(end);
      this.spill = [];
      this.spilled = 0;
      this.scanned = 0;
      this.mode = { kind: "text" };
      return this.calls([{ toolName: opener.name, input: {} }], raw.slice(0, opener.head), true);
    }
    this.advance(end);
    if (opener.form === "think") return this.text(raw);
    const calls = this.readBody(opener, body);
    this.calls(endsComplete(opener, body) ? calls : calls.map((call) => ("defect" in call ? call : { toolName: call.toolName, defect: `not closed with ${opener.close}` })), raw, true);
  }

  private readBody(opener: Exclude<Opener, { form: "json" | "think" }>, body: string): BodyCall[] {
    if (opener.form === "tool_call") return readToolCallBody(body, this.catalog);
    if (opener.form === "function") return [readFunctionBody(opener.name, body, this.catalog)];
    return [readElementBody(opener.name, body, this.catalog)];
  }

  /** Counts brackets of a JSON call to its end, then reads it (a fence's closing ``` is consumed with it). */
  private scanJson(mode: Extract<Mode, { kind: "json" }>, final: boolean): boolean {
    const { opener } = mode;
    if (mode.end === undefined) {
      const start = mode.started ? this.scanned : firstNonSpace(this.buffer, opener.head);
      if (start < 0 && !final) {
        this.scanned = opener.head;
        return false;
      }
      if (start >= 0 && !mode.started && !/[[{]/.test(this.buffer[start])) {
        // `<|tool_call|>` or `[TOOL_CALLS]` not followed by JSON.
        this.calls([{ toolName: undefined, defect: "no JSON after the call marker" }], this.buffer.slice(0, start), false);
        this.advance(start);
        return true;
      }
      mode.started = start >= 0;
      const end = start < 0 ? undefined : mode.extent.feed(this.buffer, start);
      if (end === undefined) {
        this.scanned = this.buffer.length;
        if (!final) return false;
        const raw = this.markup(this.buffer.length);
        this.advance(this.buffer.length);
        this.calls(readJsonCalls(raw.slice(opener.head), opener.name), raw, opener.via === "token");
        return true;
      }
      mode.end = end;
      this.scanned = end;
    }
    const tail = closingTail(this.buffer, mode.end, opener.via === "fence", final);
    if (tail === NEED) return false;
    const raw = this.markup(tail);
    const calls = readJsonCalls(raw.slice(opener.head, this.spilled + mode.end), opener.name);
    this.advance(tail);
    this.calls(calls, raw, opener.via === "token");
    return true;
  }

  /**
   * Emits read calls. A call on an unknown tool, or one whose tool cannot be told, stays text (`raw`); so does a
   * fenced or bare JSON object that turns out not to be a call. A known tool's unreadable call is `invalid`.
   */
  private calls(calls: BodyCall[], raw: string, marked: boolean): void {
    const known = calls.filter((call) => this.catalog.has(call.toolName));
    if (known.length === 0 || (!marked && known.length < calls.length)) {
      const named = calls.find((call) => call.toolName !== undefined && !this.catalog.has(call.toolName));
      if (marked && named?.toolName !== undefined) this.out.push({ type: "unknown", toolName: named.toolName, raw });
      else this.text(raw);
      return;
    }
    for (const call of known) {
      if ("defect" in call) this.out.push({ type: "invalid", toolName: call.toolName as string, raw, defect: call.defect });
      else this.out.push({ type: "call", toolName: call.toolName as string, input: JSON.stringify(coerceQuoted(call.input, this.catalog.schema(call.toolName as string))) });
    }
  }

  /** The current markup from its start to `end` (an offset in `buffer`), spill included. */
  private markup(end: number): string {
    return this.spill.join("") + this.buffer.slice(0, end);
  }

  private advance(end: number): void {
    this.buffer = this.buffer.slice(end);
    this.spill = [];
    this.spilled = 0;
    this.scanned = 0;
    this.mode = { kind: "text" };
  }

  private text(text: string): void {
    if (text === "") return;
    const last = this.out.at(-1);
    if (last?.type === "text") last.text += text;
    else this.out.push({ type: "text", text });
  }
}

/** Which markup ends a body that lacks its close tag (GLM-4.x separates calls with bare `<tool_call>` openers). */
function interrupts(current: Opener, next: Opener, catalog: ToolCatalog): boolean {
  if (next.form === "think" || next.form === "json") return false;
  if (current.form === "tool_call") return next.form === "tool_call";
  if (current.form === "function") return next.form === "tool_call" || next.form === "function";
  if (current.form !== "element" && current.form !== "empty") return false;
  if (next.form === "tool_call" || next.form === "function") return true;
  // Another tool's element, unless the current tool has a parameter of that name.
  const parameters = catalog.schema(current.name)?.properties ?? {};
  return next.name !== current.name && !(next.name in parameters);
}

/**
 * Whether a body without its close tag can be trusted to be whole rather than cut off: JSON (whose reader reports
 * open brackets itself), parameter lists ending in a closed value, elements (whose reader reports unclosed
 * children). YAML or plain text can always be cut mid-value.
 */
function endsComplete(opener: Opener, body: string): boolean {
  const text = body.trim();
  if (text === "" || /^[[{]/.test(text)) return true;
  if (opener.form === "tool_call" || opener.form === "function") return /<\/(function|parameter|arg_value)>$/.test(text);
  return text.startsWith("<");
}

function firstNonSpace(text: string, from: number): number {
  for (let i = from; i < text.length; i += 1) if (!/\s/.test(text[i])) return i;
  return -1;
}

/** The end of a JSON call including a closing ``` (fences) or a stray `</tool_call>` right after it. */
function closingTail(text: string, end: number, fence: boolean, final: boolean): number | typeof NEED {
  const rest = text.slice(end, end + 64);
  const space = /^\s*/.exec(rest)?.[0].length ?? 0;
  const after = rest.slice(space);
  for (const closer of fence ? ["```", "</tool_call>"] : ["</tool_call>"]) {
    if (after.startsWith(closer)) return end + space + closer.length;
    if (!final && closer.startsWith(after) && end + rest.length >= text.length) return NEED;
  }
  return end;
}
