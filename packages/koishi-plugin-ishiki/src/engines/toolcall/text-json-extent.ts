/**
 * Finds where one JSON value ends while its text arrives in pieces: brackets are counted outside strings only,
 * so a `}` or a code fence inside a string argument never ends the value. Each character is looked at once.
 */
export class JsonExtent {
  private readonly closers: string[] = [];
  private inString = false;
  private escaped = false;
  private started = false;

  /** Scans `text` from `from`; returns the index just past the value's last bracket, or undefined while open. */
  public feed(text: string, from: number): number | undefined {
    for (let i = from; i < text.length; i += 1) {
      const char = text[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (char === "\\") this.escaped = true;
        else if (char === '"') this.inString = false;
        continue;
      }
      if (char === '"') {
        this.inString = true;
        this.started = true;
      } else if (char === "{" || char === "[") {
        this.closers.push(char === "{" ? "}" : "]");
        this.started = true;
      } else if (char === "}" || char === "]") {
        if (this.closers.at(-1) === char) this.closers.pop();
        if (this.started && this.closers.length === 0) return i + 1;
      }
    }
    return undefined;
  }

  /** What is still open, in closing order (for a defect message). */
  public get missing(): string {
    return (this.inString ? '"' : "") + [...this.closers].reverse().join("");
  }
}

/** Whether `source` is one JSON value with every bracket closed (strings respected). */
export function jsonIsClosed(source: string): { closed: boolean; missing: string } {
  const extent = new JsonExtent();
  const start = source.search(/[[{]/);
  if (start < 0) return { closed: true, missing: "" };
  const end = extent.feed(source, start);
  return { closed: end !== undefined, missing: extent.missing };
}
