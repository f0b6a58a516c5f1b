interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
}

/** The seed journey's data, as in packages/workspace/test/journey.test.ts: 10,000 lines, 500 `TODO:` lines. */
function notes(): { text: string; todos: string[] } {
  const lines: string[] = [];
  const todos: string[] = [];
  for (let i = 1; i <= 10_000; i++) {
    const line = i % 20 === 0 ? `TODO: task number ${i / 20} from line ${i}` : `note line ${i}: nothing to do here, just thinking about item ${i * 7}`;
    if (i % 20 === 0) todos.push(line);
    lines.push(line);
  }
  return { text: `${lines.join("\n")}\n`, todos };
}

const PROGRAM = [
  'const notes = await tools.read({ url: "workspace:///home/workspace/notes.txt" });',
  'const todos = notes.text.split("\\n").filter((line: string) => line.startsWith("TODO:"));',
  'await tools.write_file({ path: "tasks.txt", content: todos.join("\\n") + "\\n" });',
  'return { count: todos.length, url: "workspace:///home/workspace/tasks.txt" };',
].join("\n");

/** The `read` display pages text at 2,000 lines / 30,000 characters (spec 03); a direct reader reads every page. */
function pages(text: string): string[] {
  const lines = text.split("\n");
  const out: string[] = [];
  let page: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (page.length === 2000 || size + line.length + 1 > 30_000) {
      out.push(`${page.join("\n")}\nContinue: read({url: "workspace:///home/workspace/notes.txt#offset=${out.length + 1}"})`);
      page = [];
      size = 0;
    }
    page.push(line);
    size += line.length + 1;
  }
  out.push(page.join("\n"));
  return out;
}

/**
 * Model-visible size of the seed journey (issue 9): what the model writes (tool inputs) and reads (tool
 * results) for the same work with one codemode program versus direct `read` pages and one `write_file`.
 * Tokens are counted as characters / 4.
 */
export default async function journeyBench(): Promise<Row[]> {
  const { text, todos } = notes();
  const url = "workspace:///home/workspace/tasks.txt";
  const codemode = JSON.stringify({ js: PROGRAM }).length + JSON.stringify({ count: todos.length, url }).length;
  const readPages = pages(text);
  const readCalls = readPages.map((_, i) => JSON.stringify({ url: `workspace:///home/workspace/notes.txt${i === 0 ? "" : `#offset=${i}`}` }).length);
  const direct =
    readCalls.reduce((a, b) => a + b, 0) +
    readPages.reduce((a, page) => a + page.length, 0) +
    JSON.stringify({ path: "tasks.txt", content: `${todos.join("\n")}\n` }).length +
    JSON.stringify({ ok: true, bytes: Buffer.byteLength(`${todos.join("\n")}\n`) }).length;
  return [
    { measure: "seed journey, codemode: model-visible size (program + returned JSON)", value: Math.ceil(codemode / 4), unit: "tokens (chars/4)" },
    { measure: `seed journey, direct calls: model-visible size (${readPages.length} read pages + write_file)`, value: Math.ceil(direct / 4), unit: "tokens (chars/4)" },
    { measure: "seed journey, codemode size as a share of direct", value: Number(((codemode / direct) * 100).toFixed(3)), unit: "%", target: "<= 2%" },
  ];
}
