// Lists the requirement ids of the spec that no test names (QA-22). Usage:
//   node scripts/uncovered-ids.mjs [spec dir]        (default: ../shared/spec beside the repository)
// A test covers an id by naming it, e.g. `it("AG-23 continue while idle ...")`; ranges are not expanded.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const specDir = resolve(process.argv[2] ?? join(root, "..", "shared", "spec"));
if (!existsSync(specDir)) {
  console.error(`uncovered-ids: no spec directory at ${specDir}; pass its path as the first argument`);
  process.exit(2);
}

// Requirements are defined as bold ids at the start of a list item: `- **AG-23** ...`.
const DEFINED = /^\s*-\s+\*\*([A-Z]{2}-\d+)\*\*/gm;
const MENTIONED = /\b([A-Z]{2}-\d+)\b/g;

const defined = new Map();
for (const file of readdirSync(specDir).filter((name) => name.endsWith(".md")).sort()) {
  for (const [, id] of readFileSync(join(specDir, file), "utf8").matchAll(DEFINED)) defined.set(id, file);
}

function* testFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* testFiles(path);
    else if (/\.test\.[cm]?[jt]s$/.test(entry.name)) yield path;
  }
}

const mentioned = new Set();
let files = 0;
for (const base of ["packages", "examples"]) {
  for (const file of testFiles(join(root, base))) {
    files++;
    for (const [, id] of readFileSync(file, "utf8").matchAll(MENTIONED)) mentioned.add(id);
  }
}

const uncovered = new Map();
for (const [id, file] of defined) {
  if (mentioned.has(id)) continue;
  uncovered.set(file, [...(uncovered.get(file) ?? []), id]);
}
const missing = [...uncovered.values()].reduce((sum, ids) => sum + ids.length, 0);
console.log(`${defined.size} requirement ids in ${relative(process.cwd(), specDir) || "."}; ${defined.size - missing} named by ${files} test files; ${missing} not named:`);
for (const [file, ids] of uncovered) console.log(`  ${file}: ${ids.join(", ")}`);
