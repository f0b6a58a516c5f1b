import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { checkImportOrder } from "../../../scripts/import-order.mjs";

const src = fileURLToPath(new URL("../src", import.meta.url));
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

describe("import order of packages/core/src (OV-7, OV-8)", () => {
  it("OV-7 the real source tree keeps the order", () => {
    expect(checkImportOrder(src)).toEqual([]);
  });

  it("OV-8 agent/ importing koishi is a violation, also as import type", async () => {
    const dir = await tree({
      "agent/a.ts": 'import { Context } from "koishi";\nexport const a = Context;\n',
      "agent/b.ts": 'import type { Session } from "koishi";\nexport type B = Session;\n',
    });
    const found = checkImportOrder(dir);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^agent\/a\.ts:1: "koishi" may be imported only from/);
    expect(found[1]).toMatch(/^agent\/b\.ts:1: /);
  });

  it("OV-8 agent/ importing another Ishiki folder is a violation, even a type from types/", async () => {
    const dir = await tree({
      "agent/a.ts": 'import type { X } from "../types/messages.js";\nexport type A = X;\n',
      "types/messages.ts": "export type X = 1;\n",
    });
    expect(checkImportOrder(dir)).toEqual([
      'agent/a.ts:1: agent/ imports no other Ishiki folder, but "../types/messages.js" reaches types/',
    ]);
  });

  it("OV-7 an upward import is a violation and a downward one is not", async () => {
    const dir = await tree({
      "resources/center.ts": 'import { exit } from "../exit/exit.js";\nexport const c = exit;\n',
      "exit/exit.ts": 'import { c } from "../resources/center.js";\nexport const exit = c;\n',
    });
    expect(checkImportOrder(dir)).toEqual([
      "resources/center.ts:1: resources/ imports exit/, which comes later in agent < types < gateway < resources < attachments < exit < codemode < toolsearch < tools < extension < engines < profile < runtime < koishi",
    ]);
  });

  it("OV-7 dynamic import() and export-from count as imports", async () => {
    const dir = await tree({
      "gateway/g.ts": 'export { r } from "../runtime/r.js";\nexport const load = () => import("../koishi/k.js");\n',
    });
    expect(checkImportOrder(dir).map((line) => line.split(":").slice(0, 2).join(":"))).toEqual(["gateway/g.ts:1", "gateway/g.ts:2"]);
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
