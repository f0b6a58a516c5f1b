// `pnpm check:imports`: fails when a package imports what it does not declare, or when the plugin's sources break
// the folder order of spec 00 OV-7/OV-8.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkImportOrder, checkPackageBoundaries } from "./import-order.mjs";

const packages = fileURLToPath(new URL("../packages", import.meta.url));
const violations = [];
for (const name of readdirSync(packages)) {
  if (existsSync(join(packages, name, "package.json")) && existsSync(join(packages, name, "src"))) {
    violations.push(...checkPackageBoundaries(join(packages, name)));
  }
}
violations.push(...checkImportOrder(join(packages, "koishi-plugin-ishiki", "src")).map((line) => `koishi-plugin-ishiki: src/${line}`));
if (violations.length > 0) {
  console.error(`import rules: ${violations.length} violation(s)`);
  for (const line of violations) console.error(`  ${line}`);
  process.exit(1);
}
console.log("import rules: ok");
