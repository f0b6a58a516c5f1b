// `npm run pack`: installable tarballs of every publishable package in one folder (default `dist/`), so a Koishi
// app can `npm i <folder>/*.tgz` before anything is published (issues 20 and 23). Builds first unless
// `--skip-build`; `--out <dir>` writes elsewhere. pnpm pack rewrites `workspace:` ranges to the real versions.
// Each tarball is checked for what an install and the Koishi market need: lib/index.cjs, README.md, no
// `workspace:` range left, and `koishi.description` (zh, en) for the Koishi plugins.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
/** Publishable packages in dependency order. */
const PACKAGES = ["core", "gateway", "koishi-plugin-ishiki", "workspace", "mcp-client", "onebot-actions", "memory"];

const args = process.argv.slice(2);
const outIndex = args.indexOf("--out");
const out = resolve(root, outIndex >= 0 ? args[outIndex + 1] : "dist");
const dirs = PACKAGES.map((name) => join(root, "packages", name));

if (!args.includes("--skip-build")) execFileSync("pnpm", ["run", "build"], { cwd: root, stdio: "inherit" });

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const problems = [];
for (const dir of dirs) {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  if (!existsSync(join(dir, "lib/index.cjs"))) {
    problems.push(`${pkg.name}: lib/index.cjs is missing; run pnpm run build first`);
    continue;
  }
  const before = new Set(readdirSync(out));
  execFileSync("pnpm", ["pack", "--pack-destination", out], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  const tarball = readdirSync(out).find((name) => !before.has(name) && name.endsWith(".tgz"));
  if (!tarball) {
    problems.push(`${pkg.name}: pnpm pack wrote no tarball`);
    continue;
  }
  const path = join(out, tarball);
  const files = execFileSync("tar", ["-tzf", path], { encoding: "utf8" }).split("\n");
  const manifest = JSON.parse(execFileSync("tar", ["-xzOf", path, "package/package.json"], { encoding: "utf8" }));
  // A package with a console page (client/) ships it built: the console serves dist/, never builds it.
  const page = existsSync(join(dir, "client/index.ts")) ? ["package/dist/index.js", "package/dist/style.css"] : [];
  for (const file of ["package/README.md", "package/lib/index.cjs", "package/lib/index.d.ts", ...page]) {
    if (!files.includes(file)) problems.push(`${tarball}: ${file.slice("package/".length)} is missing`);
  }
  if (JSON.stringify(manifest).includes('"workspace:')) problems.push(`${tarball}: a workspace: range was left in package.json`);
  if (manifest.name.startsWith("koishi-plugin-") && !(manifest.koishi?.description?.zh && manifest.koishi?.description?.en)) {
    problems.push(`${tarball}: package.json has no koishi.description (zh and en) for the market`);
  }
  console.log(`packed ${tarball}`);
}

if (problems.length > 0) {
  for (const problem of problems) console.error(`pack: ${problem}`);
  process.exit(1);
}
console.log(`pack: ${dirs.length} tarballs in ${out}; install them with npm i ${out}/*.tgz`);
