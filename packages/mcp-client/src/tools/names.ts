/** Folds a name to the model's alphabet (MC-10): runs outside `[A-Za-z0-9_-]` become `_`, edges trimmed. */
export function foldToolName(name: string): string {
  const folded = name.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^[_-]+|[_-]+$/g, "");
  return folded === "" ? "mcp" : folded;
}

/**
 * The exposed names of one server's tools, in listing order (MC-10): `<server>-<tool>` folded; a name already
 * taken in this server gets `_2`, `_3`, … in listing order.
 */
export function exposedToolNames(server: string, tools: readonly string[]): string[] {
  const taken = new Set<string>();
  return tools.map((tool) => {
    const base = foldToolName(`${server}-${tool}`);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    return name;
  });
}
