// `npm run bench`: runs every `*.bench.ts` under packages/*/bench/ and prints one table of their rows.
// A benchmark module's default export is an async function returning rows
// `{ measure: string, value: number | string, unit: string, target?: string }`.
import { readdirSync, existsSync, rmSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (name.endsWith(".bench.ts")) yield path;
  }
}

const files = [];
for (const pkg of readdirSync(join(root, "packages"))) {
  const dir = join(root, "packages", pkg, "bench");
  if (existsSync(dir)) files.push(...walk(dir));
}
const only = process.argv[2];

const rows = [];
const outs = new Set();
try {
  for (const file of files.filter((f) => !only || f.includes(only))) {
    // Benchmarks run the sources, as the tests do: bundle our code, leave dependencies to Node.
    // The bundle sits in the package's node_modules so that its dependencies resolve as the package's own.
    const pkgDir = join(root, ...relative(root, file).split(sep).slice(0, 2));
    const out = join(pkgDir, "node_modules", ".bench");
    outs.add(out);
    const outfile = join(out, `${relative(pkgDir, file).replace(/[\\/]/g, "_")}.mjs`);
    await build({
      entryPoints: [file],
      outfile,
      bundle: true,
      packages: "external",
      platform: "node",
      format: "esm",
      target: "node20",
      conditions: ["ishiki:source"],
      logLevel: "warning",
    });
    const run = (await import(pathToFileURL(outfile).href)).default;
    for (const row of await run()) rows.push({ file: relative(root, file), ...row });
  }
} finally {
  for (const out of outs) rmSync(out, { recursive: true, force: true });
}

const header = ["benchmark", "measure", "value", "target"];
const lines = rows.map((r) => [r.file, r.measure, `${r.value} ${r.unit}`, r.target ?? "report"]);
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
const format = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
console.log(format(header));
console.log(format(widths.map((w) => "-".repeat(w))));
for (const line of lines) console.log(format(line));
if (rows.length === 0) console.log("(no benchmarks yet under packages/*/bench/)");
