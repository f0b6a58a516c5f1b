import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
// Inside the package's node_modules, so the bundle's external dependencies resolve as the published ones do.
const outDir = mkdtempSync(join(packageDir, "node_modules", ".codemode-bundle-"));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

it("CT-7 the sandbox runs from a CommonJS bundle built like lib/index.cjs, from any working directory", async () => {
  const outfile = join(outDir, "codemode.cjs");
  // The same options as scripts/build.mjs uses for the published entry.
  await build({
    entryPoints: [join(packageDir, "src/codemode/index.ts")],
    outfile,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "cjs",
    target: "node20",
    logLevel: "warning",
  });
  const script = `
    const { createCodemodeSandbox } = require(${JSON.stringify(outfile)});
    const sandbox = createCodemodeSandbox({ poolSize: 1 });
    sandbox.run({
      js: "const n: number = (await tools.double({ n: 21 })).n; console.log('n', n); return { n }",
      tools: [{ name: "double" }],
      callTool: async (_name, input) => ({ n: input.n * 2 }),
    }).then((outcome) => { console.log(JSON.stringify(outcome)); return sandbox.close(); });
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ["-e", script], { cwd: tmpdir(), timeout: 30_000 });
  expect(JSON.parse(stdout.trim())).toEqual({ ok: true, value: { n: 42 }, console: ["[log] n 42"] });
});
