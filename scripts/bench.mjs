// `npm run bench [filter]`: runs every `*.bench.ts` under packages/*/bench/, prints one table and writes it to
// docs/benchmarks.md (spec 12 QA-15).
//
// A benchmark module's default export is an async function returning rows:
//   { measure: string, value: number | string, unit: string, target?: string, pass?: boolean,
//     higherIsBetter?: boolean }
// `pass: false` (a missed target) fails the run. A numeric row's first recorded value is its baseline
// (docs/benchmarks.json); a later value more than 25 % worse than the baseline fails the run too.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const baselinePath = join(root, "docs/benchmarks.json");
const reportPath = join(root, "docs/benchmarks.md");
const REGRESSION = 0.25;
// The child prints its rows after this mark, so a benchmark's own console output cannot be mistaken for them.
const MARK = "\n@@bench-rows@@";
// A file, not `node -e`: worker threads inherit the parent's exec arguments, and codemode's worker is CommonJS.
const RUNNER = `(async () => {
  const loaded = require(process.argv[2]);
  const run = loaded.default ?? loaded;
  const rows = await run();
  process.stdout.write(${JSON.stringify(MARK)} + JSON.stringify(rows));
  process.exit(0);
})();
`;

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (name.endsWith(".bench.ts")) yield path;
  }
}

const filter = process.argv[2];
const files = [];
for (const pkg of readdirSync(join(root, "packages"))) {
  const dir = join(root, "packages", pkg, "bench");
  if (existsSync(dir)) files.push(...[...walk(dir)].filter((f) => !filter || relative(root, f).includes(filter)));
}

const rows = [];
const outs = new Set();
try {
  for (const file of files) {
    // Benchmarks run the sources, as the tests do. The bundle sits in the package's node_modules so that its
    // dependencies resolve as the package's own.
    const pkgDir = join(root, ...relative(root, file).split(sep).slice(0, 2));
    const out = join(pkgDir, "node_modules", ".bench");
    outs.add(out);
    const outfile = join(out, `${relative(pkgDir, file).replace(/[\\/]/g, "_")}.cjs`);
    await build({
      entryPoints: [file],
      outfile,
      bundle: true,
      packages: "external",
      platform: "node",
      // CommonJS, as the published packages are: code that needs `require` (codemode's worker) runs as it would there.
      format: "cjs",
      target: "node20",
      conditions: ["ishiki:source"],
      logLevel: "warning",
    });
    // Each benchmark runs in a process of its own: a heap left behind by the previous one (50 MB results, worker
    // pools) would otherwise show up as garbage collection in the next one's figures.
    const runner = join(out, "run.cjs");
    writeFileSync(runner, RUNNER);
    const output = execFileSync(process.execPath, [runner, outfile], {
      cwd: pkgDir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 64 * 1024 * 1024,
    });
    const result = JSON.parse(output.slice(output.lastIndexOf(MARK) + MARK.length));
    for (const row of result) rows.push({ file: relative(root, file).split(sep).join("/"), ...row });
  }
} finally {
  for (const out of outs) rmSync(out, { recursive: true, force: true });
}

const baselines = existsSync(baselinePath) ? JSON.parse(readFileSync(baselinePath, "utf8")) : {};
const failures = [];
for (const row of rows) {
  const key = `${row.file} :: ${row.measure}`;
  if (row.pass === false) failures.push(`${key}: ${row.value} ${row.unit} misses its target ${row.target}`);
  if (typeof row.value !== "number") continue;
  const base = baselines[key];
  if (base === undefined) {
    baselines[key] = row.value;
    row.baseline = "(new)";
    continue;
  }
  row.baseline = `${base} ${row.unit}`;
  const worse = row.higherIsBetter ? (base - row.value) / base : (row.value - base) / base;
  if (base > 0 && worse > REGRESSION) failures.push(`${key}: ${row.value} ${row.unit} is ${(worse * 100).toFixed(0)} % worse than the baseline ${base}`);
}

const header = ["benchmark", "measure", "value", "target", "baseline"];
const lines = rows.map((r) => [r.file, r.measure, `${r.value} ${r.unit}`, r.target ? `${r.target}${r.pass === false ? " (missed)" : ""}` : "report", r.baseline ?? ""]);
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
const format = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
const table = [format(header), format(widths.map((w) => "-".repeat(w))), ...lines.map(format)].join("\n");
console.log(table);
if (rows.length === 0) console.log("(no benchmarks matched under packages/*/bench/)");

if (!filter && rows.length > 0) {
  writeFileSync(baselinePath, JSON.stringify(baselines, null, 2) + "\n");
  writeFileSync(reportPath, `# Benchmarks\n\nWritten by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version}, ${process.platform}/${process.arch}). A row's target fails the run when missed; "report" rows have none. Baselines live in \`benchmarks.json\`; a regression above 25 % fails the run.\n\n${table}\n`);
}
if (failures.length > 0) {
  console.error(`\nbench: ${failures.length} failure(s)`);
  for (const failure of failures) console.error(`  ${failure}`);
  process.exit(1);
}
