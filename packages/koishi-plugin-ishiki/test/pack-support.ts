// The packed tarballs as a bot author gets them: `scripts/pack.mjs` (what `npm run pack` runs) writes them to a
// temporary folder, and plain npm installs them into fresh directories outside the workspace. The packages must
// be built (`pnpm run build`, as `.ci/run` and `npm test` do before the tests).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const repo = fileURLToPath(new URL("../../..", import.meta.url));

/** Versions the installs pin, as the toolchain notes list them. */
export const VERSIONS = {
  koishi: "4.18.11",
  "@koishijs/plugin-mock": "2.6.6",
  "@koishijs/plugin-http": "0.6.3",
  "@koishijs/plugin-proxy-agent": "0.3.3",
  typescript: "5.9.3",
  "@types/node": "20.19.43",
} as const;

export interface Run {
  code: number;
  output: string;
}

/** Runs a command to its end; never rejects, so a failing step reports its output. */
export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv()): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

/**
 * The environment of a fresh shell: the `npm_config_*` and pnpm variables of the test runner's own pnpm would
 * otherwise steer the child npm (its registry settings, its lockfile rules).
 */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|PNPM_)/i.test(key) || key === "NODE_OPTIONS" || key.startsWith("VITEST")) continue;
    env[key] = value;
  }
  return { ...env, FORCE_COLOR: "0", npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" };
}

export interface Tarballs {
  dir: string;
  /** Package name → absolute tarball path. */
  byName: Map<string, string>;
  dispose(): Promise<void>;
}

/** Packs every publishable package with `scripts/pack.mjs --skip-build` into a temporary folder. */
export async function packTarballs(): Promise<Tarballs> {
  for (const name of ["core", "gateway", "koishi-plugin-ishiki", "workspace"]) {
    if (!existsSync(join(repo, "packages", name, "lib/index.cjs"))) throw new Error(`packages/${name}: lib/index.cjs is missing; run pnpm run build first`);
  }
  const dir = await mkdtemp(join(tmpdir(), "ishiki-dist-"));
  // pnpm must see the workspace, so it runs with the runner's environment.
  const packed = await run(process.execPath, [join(repo, "scripts/pack.mjs"), "--skip-build", "--out", dir], repo, process.env);
  if (packed.code !== 0) throw new Error(`scripts/pack.mjs failed:\n${packed.output}`);
  const byName = new Map<string, string>();
  for (const file of await readdir(dir)) {
    const name = file.replace(/-\d+\.\d+\.\d+\.tgz$/, "").replace(/^yesimagent-/, "@yesimagent/");
    byName.set(name, join(dir, file));
  }
  return { dir, byName, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** A fresh directory outside the workspace holding `package.json` with these dependencies. */
export async function freshPackage(name: string, dependencies: Record<string, string>, extra: Record<string, unknown> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `${name}-`));
  await writeFile(join(dir, "package.json"), `${JSON.stringify({ name, version: "0.0.0", private: true, ...extra, dependencies }, null, 2)}\n`);
  return dir;
}

/** `npm install` as a bot author runs it: plain npm, the registry for everything but our tarballs. */
export async function npmInstall(dir: string): Promise<Run> {
  return run("npm", ["install", "--no-audit", "--no-fund", "--foreground-scripts"], dir);
}

/** Native builds npm reported (node-gyp runs) and compressors that must not be installed (issue 20). */
export async function nativeBuilds(dir: string, install: Run): Promise<string[]> {
  const found: string[] = [];
  if (/node-gyp|gyp info|prebuild-install/.test(install.output)) found.push("node-gyp ran during npm install");
  for (const name of ["node-liblzma", "@mongodb-js/zstd"]) if (existsSync(join(dir, "node_modules", name))) found.push(`${name} was installed`);
  return found;
}
