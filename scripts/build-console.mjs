// Builds a package's Koishi console page (`client/index.ts` → `dist/index.js` + `dist/style.css`) with the console's
// own builder from @koishijs/client: Vue single-file components, `vue` and `@koishijs/client` left to the
// console's import map. Run in the package folder after scripts/build.mjs (the package's `build` script).
import { createRequire } from "node:module";
import { join } from "node:path";

// The builder loads Vite through its CommonJS API, which warns on every build.
process.env.VITE_CJS_IGNORE_WARNING = "true";
const cwd = process.cwd();
const require = createRequire(join(cwd, "package.json"));
const { build } = require("@koishijs/client/lib");
await build(cwd, { logLevel: "warn" });
console.log(`built ${require("./package.json").name} console page`);
