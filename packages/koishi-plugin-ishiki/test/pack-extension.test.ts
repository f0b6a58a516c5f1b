// Issue 23, done when: an extension package outside the workspace that depends on koishi-plugin-ishiki and
// @yesimagent/gateway (installed from the packed tarballs with plain npm) imports `type { Gateway }` from
// "@yesimagent/gateway", `createAgent` from "@yesimagent/core", and compiles with every seed 001 code sample
// unchanged: the plugin samples of examples/extensions/src and the three contract samples in fixtures/seed-001.
import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshPackage, nativeBuilds, npmInstall, packTarballs, repo, run, VERSIONS, type Tarballs } from "./pack-support.js";

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2023"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
  },
  include: ["src"],
};

describe("an extension package built against the packed tarballs (issue 23)", () => {
  let tarballs: Tarballs | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    tarballs = await packTarballs();
  }, 60_000);
  afterAll(async () => {
    await tarballs?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("OV-15 XA-28 plain npm installs the tarballs without native builds and tsc compiles the seed 001 samples, Gateway from @yesimagent/gateway and createAgent from @yesimagent/core", async () => {
    const tarball = (name: string) => `file:${tarballs!.byName.get(name)}`;
    dir = await freshPackage(
      "seed-extension",
      {
        "koishi-plugin-ishiki": tarball("koishi-plugin-ishiki"),
        "@yesimagent/gateway": tarball("@yesimagent/gateway"),
        "@yesimagent/core": tarball("@yesimagent/core"),
        koishi: VERSIONS.koishi,
      },
      { type: "module", devDependencies: { typescript: VERSIONS.typescript, "@types/node": VERSIONS["@types/node"] } },
    );
    const install = await npmInstall(dir);
    expect(install.code, install.output).toBe(0);
    expect(await nativeBuilds(dir, install)).toEqual([]);

    const src = join(dir, "src");
    await mkdir(src);
    await cp(join(repo, "examples/extensions/src"), join(src, "samples"), { recursive: true });
    await cp(join(repo, "packages/koishi-plugin-ishiki/test/fixtures/seed-001"), join(src, "contracts"), { recursive: true, filter: (path) => !path.endsWith(".md") });
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
    const tsc = await run(process.execPath, [join(dir, "node_modules/typescript/bin/tsc"), "-p", dir, "--listFilesOnly"], dir);
    expect(tsc.code, tsc.output).toBe(0);
    // The program's files are the installed packages' declarations, not the workspace sources.
    expect(tsc.output).toContain(join(dir, "node_modules/@yesimagent/gateway/lib/index.d.ts"));
    expect(tsc.output).not.toContain(join(repo, "packages"));
    for (const file of ["samples/note.ts", "samples/briefing.ts", "samples/grounding.ts", "samples/engine-map.ts", "samples/clock.ts", "contracts/extension-instance.ts", "contracts/wakeup-engine-instance.ts", "contracts/toolcall-engine-instance.ts", "contracts/tarball-consumer.ts"]) {
      expect(tsc.output).toContain(join(src, file));
    }
    const compiled = await run(process.execPath, [join(dir, "node_modules/typescript/bin/tsc"), "-p", dir], dir);
    expect(compiled.output).toBe("");
    expect(compiled.code).toBe(0);
  }, 300_000);
});
