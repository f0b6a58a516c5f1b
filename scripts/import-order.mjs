// The import rules of spec 00 OV-6 .. OV-8. Between packages: a package's sources import only what its package.json
// declares, and the core and the gateway declare nothing of Koishi or Ishiki. Inside the plugin
// (packages/koishi-plugin-ishiki/src): a folder imports only folders earlier in the list, where `agent` is
// @yesimagent/core and `gateway` is @yesimagent/gateway, and only the Koishi-facing layers import `koishi`.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { INLINED } from "./inline.mjs";

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
  "usage",
  "runtime",
  "koishi",
];

/** Inside engines/ the sub-folders have their own order; files directly in engines/ are the base classes. */
const ENGINE_ORDER = ["", "shared", "context", "wakeup", "toolcall"];

const KOISHI_MODULE = /^(koishi|@koishijs\/.+)$/;

/** The packages that stand for the first folders of the order. */
const PACKAGE_FOLDERS = { "@yesimagent/core": "agent", "@yesimagent/gateway": "gateway" };
/** What the agent core and the gateway must not depend on: they run without Koishi and without Ishiki. */
const HOST_MODULE = /^(koishi|@koishijs\/.+|@satorijs\/.+|koishi-plugin-.+|schemastery)$/;

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
  if (parts.length === 1) {
    // A root file named after a folder is part of it (seed 001 puts the ExtensionInstance contract in src/extension.ts).
    const stem = parts[0].replace(/\.(m|c)?tsx?$/, "").replace(/\.js$/, "");
    return { folder: FOLDER_ORDER.includes(stem) ? stem : null, sub: null };
  }
  return { folder: parts[0], sub: parts[0] === "engines" ? (parts.length > 2 ? parts[1] : "") : null };
}

/**
 * Checks every source file of the plugin under `srcDir` and returns one line per violation, `path:line: reason`.
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
    if (Object.values(PACKAGE_FOLDERS).includes(from.folder)) {
      const name = Object.keys(PACKAGE_FOLDERS).find((key) => PACKAGE_FOLDERS[key] === from.folder);
      violations.push(`${where(1)}: ${from.folder}/ is the package ${name}; put this file there, not in the plugin`);
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
      const packageFolder = PACKAGE_FOLDERS[spec];
      if (packageFolder !== undefined) {
        if (FOLDER_ORDER.indexOf(packageFolder) > rank) {
          violations.push(`${where(line)}: ${from.folder}/ imports ${spec} (${packageFolder}/), which comes later in ${FOLDER_ORDER.join(" < ")}`);
        }
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
      if (FOLDER_ORDER.indexOf(to.folder) > rank) {
        violations.push(`${where(line)}: ${from.folder}/ imports ${to.folder}/, which comes later in ${FOLDER_ORDER.join(" < ")}`);
      }
    }
  }
  return violations;
}

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
function packageOf(spec) {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/**
 * Checks the sources of one package (the folder holding its package.json) against its declared dependencies
 * and returns one line per violation, `<package>/src/path:line: reason`. Relative imports stay inside src/;
 * bare ones name the package itself, a Node built-in, a dependency or peer dependency, or a package the build
 * inlines (scripts/inline.mjs). The core and the
 * gateway may not declare Koishi or Ishiki packages at all (OV-6, OV-8).
 */
export function checkPackageBoundaries(packageDir) {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {}), ...(INLINED[manifest.name] ?? [])]);
  const hostFree = manifest.name === "@yesimagent/core" || manifest.name === "@yesimagent/gateway";
  const srcDir = join(packageDir, "src");
  const violations = [];
  const label = (file, line) => `${manifest.name}: src/${relative(srcDir, file).split(sep).join("/")}:${line}`;
  if (hostFree) {
    for (const name of declared) {
      if (HOST_MODULE.test(name) || name.startsWith("@yesimagent/")) violations.push(`${manifest.name}: package.json depends on "${name}"; this package runs without Koishi and Ishiki`);
    }
  }
  for (const file of walk(srcDir)) {
    if (/\.test(-d)?\.ts$/.test(file)) continue;
    for (const { spec, line } of specifiers(file, readFileSync(file, "utf8"))) {
      if (spec.startsWith(".")) {
        if (relative(srcDir, resolve(dirname(file), spec)).startsWith("..")) violations.push(`${label(file, line)}: "${spec}" leaves src/`);
        continue;
      }
      if (spec.startsWith("node:") || spec.includes("${")) continue;
      const name = packageOf(spec);
      if (name === manifest.name) continue;
      if (hostFree && (HOST_MODULE.test(name) || name.startsWith("@yesimagent/"))) {
        violations.push(`${label(file, line)}: "${spec}": ${manifest.name} imports nothing of Koishi or Ishiki`);
      } else if (!declared.has(name)) {
        violations.push(`${label(file, line)}: "${spec}" is not a dependency of ${manifest.name}; add it to its package.json`);
      }
    }
  }
  return violations;
}
