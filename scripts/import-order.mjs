// The import order of packages/core/src (spec 00 OV-7, OV-8): a folder imports only folders earlier in the list,
// and only the Koishi-facing layers import `koishi`.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

export const FOLDER_ORDER = [
  "agent",
  "types",
  "gateway",
  "resources",
  "attachments",
  "exit",
  "codemode",
  "toolsearch",
  "tools",
  "extension",
  "engines",
  "profile",
  "runtime",
  "koishi",
];

/** Inside engines/ the sub-folders have their own order; files directly in engines/ are the base classes. */
const ENGINE_ORDER = ["", "shared", "context", "wakeup", "toolcall"];

const KOISHI_MODULE = /^(koishi|@koishijs\/.+)$/;

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (/\.(m|c)?tsx?$/.test(name) && !name.endsWith(".d.ts")) yield path;
  }
}

/** Every module specifier a file names, with whether the reference is type-only. */
function specifiers(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = ts.isImportDeclaration(node)
        ? Boolean(node.importClause?.isTypeOnly) ||
          Boolean(node.importClause && !node.importClause.name && node.importClause.namedBindings && ts.isNamedImports(node.importClause.namedBindings) && node.importClause.namedBindings.elements.length > 0 && node.importClause.namedBindings.elements.every((e) => e.isTypeOnly))
        : node.isTypeOnly;
      found.push({ spec: node.moduleSpecifier.text, typeOnly, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ spec: node.argument.literal.text, typeOnly: true, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    } else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === "require")) && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      found.push({ spec: node.arguments[0].text, typeOnly: false, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Where a file sits: its top folder and, under engines/, its sub-folder ("" for the base classes). */
function place(srcDir, file) {
  const parts = relative(srcDir, file).split(sep);
  if (parts.length === 1) return { folder: null, sub: null };
  return { folder: parts[0], sub: parts[0] === "engines" ? (parts.length > 2 ? parts[1] : "") : null };
}

/**
 * Checks every source file under `srcDir` and returns one line per violation, `path:line: reason`.
 * `index.ts` at the root holds public exports and may import any folder.
 */
export function checkImportOrder(srcDir) {
  const violations = [];
  for (const file of walk(srcDir)) {
    const from = place(srcDir, file);
    if (from.folder === null) continue;
    const rank = FOLDER_ORDER.indexOf(from.folder);
    const where = (line) => `${relative(srcDir, file).split(sep).join("/")}:${line}`;
    if (rank < 0) {
      violations.push(`${where(1)}: folder "${from.folder}" is not in the folder order; add it to scripts/import-order.mjs`);
      continue;
    }
    for (const { spec, typeOnly, line } of specifiers(file, readFileSync(file, "utf8"))) {
      if (KOISHI_MODULE.test(spec)) {
        const allowed =
          from.folder === "koishi" ||
          from.folder === "extension" ||
          (from.folder === "engines" && (from.sub === "" || typeOnly));
        if (!allowed) violations.push(`${where(line)}: "${spec}" may be imported only from koishi/, extension/ and the engine base classes (engine variants: import type)`);
        continue;
      }
      if (from.folder === "agent" && spec === "@satorijs/element") {
        violations.push(`${where(line)}: agent/ must not import "${spec}"; element parsing starts at types/`);
        continue;
      }
      if (!spec.startsWith(".")) continue;
      const target = resolve(dirname(file), spec);
      const to = place(srcDir, target);
      if (relative(srcDir, target).startsWith("..")) {
        violations.push(`${where(line)}: "${spec}" leaves src/`);
        continue;
      }
      if (to.folder === null) {
        violations.push(`${where(line)}: "${spec}" imports the package index; import the defining folder instead`);
        continue;
      }
      if (to.folder === from.folder) {
        if (from.folder === "engines" && ENGINE_ORDER.indexOf(to.sub) > ENGINE_ORDER.indexOf(from.sub) && to.sub !== "") {
          violations.push(`${where(line)}: engines/${from.sub || "(base)"} imports engines/${to.sub}, which comes later (${ENGINE_ORDER.filter(Boolean).join(" < ")})`);
        }
        continue;
      }
      if (from.folder === "agent") {
        violations.push(`${where(line)}: agent/ imports no other Ishiki folder, but "${spec}" reaches ${to.folder}/`);
        continue;
      }
      if (FOLDER_ORDER.indexOf(to.folder) > rank) {
        violations.push(`${where(line)}: ${from.folder}/ imports ${to.folder}/, which comes later in ${FOLDER_ORDER.join(" < ")}`);
      }
    }
  }
  return violations;
}
