import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { checkImportOrder, checkPackageBoundaries } from "../../../scripts/import-order.mjs";

const src = fileURLToPath(new URL("../src", import.meta.url));
const packages = fileURLToPath(new URL("../..", import.meta.url));
let root: string | undefined;

async function tree(files: Record<string, string>): Promise<string> {
  root = await mkdtemp(join(tmpdir(), "ishiki-order-"));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

describe("package boundaries (OV-6, OV-8)", () => {
  it("OV-6 every real package imports only what it declares", () => {
    for (const name of ["core", "gateway", "koishi-plugin-ishiki", "workspace", "mcp-client", "onebot-actions"]) {
      expect(checkPackageBoundaries(join(packages, name))).toEqual([]);
    }
  });

  it("OV-8 the core importing koishi or Ishiki is a violation, also as import type", async () => {
    const dir = await tree({
      "package.json": JSON.stringify({ name: "@yesimagent/core", dependencies: { ai: "1" } }),
      "src/a.ts": 'import { Context } from "koishi";\nexport const a = Context;\n',
      "src/b.ts": 'import type { Session } from "koishi";\nexport type B = Session;\n',
      "src/c.ts": 'import type { X } from "koishi-plugin-ishiki";\nimport { tool } from "ai";\nexport type C = X;\nexport const t = tool;\n',
    });
    const found = checkPackageBoundaries(dir);
    expect(found).toHaveLength(3);
    expect(found[0]).toMatch(/^@yesimagent\/core: src\/a\.ts:1: "koishi": @yesimagent\/core imports nothing of Koishi or Ishiki/);
    expect(found[1]).toMatch(/^@yesimagent\/core: src\/b\.ts:1: /);
    expect(found[2]).toMatch(/^@yesimagent\/core: src\/c\.ts:1: "koishi-plugin-ishiki"/);
  });

  it("OV-8 the gateway declaring a Koishi dependency is a violation even unused", async () => {
    const dir = await tree({
      "package.json": JSON.stringify({ name: "@yesimagent/gateway", dependencies: { koishi: "4" } }),
      "src/g.ts": "export const g = 1;\n",
    });
    expect(checkPackageBoundaries(dir)).toEqual(['@yesimagent/gateway: package.json depends on "koishi"; this package runs without Koishi and Ishiki']);
  });

  it("OV-6 an undeclared package and a relative import out of src/ are violations", async () => {
    const dir = await tree({
      "package.json": JSON.stringify({ name: "koishi-plugin-x", peerDependencies: { koishi: "4" } }),
      "src/a.ts": 'import { Context } from "koishi";\nimport { parse } from "yaml/util";\nimport { b } from "../test/b.js";\nimport { join } from "node:path";\nexport const a = [Context, parse, b, join];\n',
    });
    expect(checkPackageBoundaries(dir)).toEqual([
      'koishi-plugin-x: src/a.ts:2: "yaml/util" is not a dependency of koishi-plugin-x; add it to its package.json',
      'koishi-plugin-x: src/a.ts:3: "../test/b.js" leaves src/',
    ]);
  });
});

describe("folder order of the plugin's src (OV-7, OV-8)", () => {
  it("OV-7 the real source tree keeps the order", () => {
    expect(checkImportOrder(src)).toEqual([]);
  });

  it("OV-7 the core and the gateway stand for the first folders: types/ may import the core, not the gateway", async () => {
    const dir = await tree({
      "types/a.ts": 'import type { AgentMessage } from "@yesimagent/core";\nimport type { Gateway } from "@yesimagent/gateway";\nexport type A = [AgentMessage, Gateway];\n',
      "resources/r.ts": 'import type { Gateway } from "@yesimagent/gateway";\nexport type R = Gateway;\n',
    });
    expect(checkImportOrder(dir)).toEqual([
      "types/a.ts:2: types/ imports @yesimagent/gateway (gateway/), which comes later in agent < types < gateway < resources < attachments < exit < codemode < toolsearch < tools < extension < engines < profile < usage < runtime < koishi",
    ]);
  });

  it("OV-6 a file in an agent/ or gateway/ folder of the plugin belongs in its own package", async () => {
    const dir = await tree({ "agent/a.ts": "export const a = 1;\n", "gateway/g.ts": "export const g = 1;\n" });
    expect(checkImportOrder(dir).sort()).toEqual([
      "agent/a.ts:1: agent/ is the package @yesimagent/core; put this file there, not in the plugin",
      "gateway/g.ts:1: gateway/ is the package @yesimagent/gateway; put this file there, not in the plugin",
    ]);
  });

  it("OV-7 a root file named after a folder is part of that folder (src/extension.ts)", async () => {
    const dir = await tree({
      "extension.ts": 'import type { K } from "./koishi/k.js";\nexport type E = K;\n',
      "koishi/k.ts": "export type K = 1;\n",
      "runtime/r.ts": 'import type { E } from "../extension.js";\nexport type R = E;\n',
    });
    expect(checkImportOrder(dir)).toEqual([
      "extension.ts:1: extension/ imports koishi/, which comes later in agent < types < gateway < resources < attachments < exit < codemode < toolsearch < tools < extension < engines < profile < usage < runtime < koishi",
    ]);
  });

  it("OV-7 an upward import is a violation and a downward one is not", async () => {
    const dir = await tree({
      "resources/center.ts": 'import { exit } from "../exit/exit.js";\nexport const c = exit;\n',
      "exit/exit.ts": 'import { c } from "../resources/center.js";\nexport const exit = c;\n',
    });
    expect(checkImportOrder(dir)).toEqual([
      "resources/center.ts:1: resources/ imports exit/, which comes later in agent < types < gateway < resources < attachments < exit < codemode < toolsearch < tools < extension < engines < profile < usage < runtime < koishi",
    ]);
  });

  it("OV-7 dynamic import() and export-from count as imports", async () => {
    const dir = await tree({
      "resources/g.ts": 'export { r } from "../runtime/r.js";\nexport const load = () => import("../koishi/k.js");\n',
    });
    expect(checkImportOrder(dir).map((line) => line.split(":").slice(0, 2).join(":"))).toEqual(["resources/g.ts:1", "resources/g.ts:2"]);
  });

  it("OV-8 engine base classes may import koishi; variants only import type", async () => {
    const dir = await tree({
      "engines/context-engine.ts": 'import { Service } from "koishi";\nexport const S = Service;\n',
      "engines/context/v3.ts": 'import type { Context } from "koishi";\nexport type C = Context;\n',
      "engines/wakeup/timer.ts": 'import { Time } from "koishi";\nexport const t = Time;\n',
      "engines/shared/render.ts": 'import { x } from "../toolcall/narrative.js";\nexport const y = x;\n',
      "engines/toolcall/narrative.ts": 'import { y } from "../shared/render.js";\nexport const x = y;\n',
    });
    const found = checkImportOrder(dir);
    expect(found).toHaveLength(2);
    expect(found.some((line) => line.startsWith("engines/wakeup/timer.ts:1: \"koishi\""))).toBe(true);
    expect(found.some((line) => line.startsWith("engines/shared/render.ts:1: engines/shared imports engines/toolcall"))).toBe(true);
  });

  it("OV-7 a folder outside the order is reported", async () => {
    const dir = await tree({ "misc/x.ts": "export const x = 1;\n" });
    expect(checkImportOrder(dir)).toEqual(['misc/x.ts:1: folder "misc" is not in the folder order; add it to scripts/import-order.mjs']);
  });
});
