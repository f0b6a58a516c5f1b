// Runs the test suite (vitest) under Node 22 on a machine that has only Node 20: the official Node binaries come
// from the npm registry's `node-<platform>-<arch>` package (no nodejs.org), cached in node_modules/.cache/node22.
// Usage: node scripts/node22.mjs [vitest run arguments], e.g. `node scripts/node22.mjs packages/core`.
// Build first (`pnpm run build`): tests that load the built plugins read their lib/.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The Node 22 release we test on; exact, so every run tests the same binary. */
const VERSION = process.env.ISHIKI_NODE22_VERSION ?? "22.23.5";
const root = fileURLToPath(new URL("..", import.meta.url));
const cache = join(root, "node_modules/.cache/node22");
const platform = process.platform === "win32" ? "win" : process.platform;
const pkg = `node-${platform}-${process.arch}`;
const binary = join(cache, "node_modules", pkg, "bin", process.platform === "win32" ? "node.exe" : "node");

function versionOf(path) {
  try {
    return execFileSync(path, ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
}

if (versionOf(binary) !== `v${VERSION}`) {
  console.log(`node22: fetching ${pkg}@${VERSION} from the npm registry into ${cache}`);
  mkdirSync(cache, { recursive: true });
  const install = spawnSync("npm", ["install", "--prefix", cache, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", `${pkg}@${VERSION}`], { stdio: "inherit" });
  const found = versionOf(binary);
  if (install.status !== 0 || found !== `v${VERSION}`) {
    console.error(`node22: could not install ${pkg}@${VERSION} (npm exit ${install.status}, ${existsSync(binary) ? `binary says ${found}` : "no binary"})`);
    process.exit(1);
  }
}

const vitest = join(root, "node_modules/vitest/vitest.mjs");
console.log(`node22: vitest run under ${versionOf(binary)}`);
const run = spawnSync(binary, [vitest, "run", ...process.argv.slice(2)], { cwd: root, stdio: "inherit" });
process.exit(run.status ?? 1);
