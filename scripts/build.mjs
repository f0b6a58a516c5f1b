// Builds the package in the current directory for publishing: a CommonJS bundle per entry point (the Koishi
// loader `require()`s plugins, and a stock install has no ESM patch for @koishijs/loader) plus declarations.
// The entries are the package.json exports whose `ishiki:source` names a source file: `src/index.ts` always,
// and e.g. `./sqlite` → `src/sqlite/index.ts` built to that export's `require` file.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { build } from "esbuild";
import { INLINED } from "./inline.mjs";

const cwd = process.cwd();
const require = createRequire(join(cwd, "package.json"));
const pkg = require("./package.json");

rmSync(join(cwd, "lib"), { recursive: true, force: true });

const entries = Object.values(pkg.exports ?? {}).filter((entry) => typeof entry === "object" && entry["ishiki:source"] && entry.require);
if (entries.length === 0) entries.push({ "ishiki:source": "./src/index.ts", require: "./lib/index.cjs" });

// Packages inlined into lib/ (scripts/inline.mjs says which and why); everything else stays external.
const inline = new Set(INLINED[pkg.name] ?? []);
const packageOf = (path) => path.split("/").slice(0, path.startsWith("@") ? 2 : 1).join("/");
const externals = {
  name: "externals",
  setup(build) {
    // An inlined package is taken in its CommonJS build (its `require` export), as the output is CommonJS.
    build.onResolve({ filter: /^[^./]/ }, (args) => (inline.has(packageOf(args.path)) ? { path: require.resolve(args.path) } : { path: args.path, external: true }));
  },
};

for (const entry of entries) await build({
  entryPoints: [join(cwd, entry["ishiki:source"])],
  outfile: join(cwd, entry.require),
  bundle: true,
  // Dependencies stay `require()` calls: Node >= 20.19 loads ESM-only ones such as `ai` that way.
  ...(inline.size === 0 ? { packages: "external" } : { plugins: [externals] }),
  platform: "node",
  format: "cjs",
  target: "node20",
  // `import()` becomes `require()`: a plugin's optional dependency loaded on demand (the console) must be the very
  // CommonJS module the Koishi loader required, not its ESM twin with classes of another identity.
  supported: { "dynamic-import": false },
  sourcemap: true,
  logLevel: "warning",
});

// Declarations come from the package's tsconfig.build.json, which resolves sibling packages through their
// built types rather than their sources.
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(cwd, "tsconfig.build.json")], {
  stdio: "inherit",
});
console.log(`built ${pkg.name}`);
