// `pnpm check:imports`: fails when packages/core/src breaks the folder order of spec 00 OV-7/OV-8.
import { fileURLToPath } from "node:url";
import { checkImportOrder } from "./import-order.mjs";

const src = fileURLToPath(new URL("../packages/core/src", import.meta.url));
const violations = checkImportOrder(src);
if (violations.length > 0) {
  console.error(`import order: ${violations.length} violation(s) in packages/core/src`);
  for (const line of violations) console.error(`  ${line}`);
  process.exit(1);
}
console.log("import order: ok");
