// Starts the demo app: builds the plugins when their lib/ (or the console page's dist/) is missing or older than
// their sources, writes koishi.yml from the pristine copy, and runs `koishi start` in this directory until Ctrl-C.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { prepareApp } from "./prepare.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "../..");

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

// In dependency order: the plugin's declarations are built against the core's and the gateway's.
for (const name of ["core", "gateway", "koishi-plugin-ishiki", "workspace"]) {
  const pkg = join(repo, "packages", name);
  const lib = join(pkg, "lib/index.cjs");
  if (!(existsSync(lib) && statSync(lib).mtimeMs >= newest(join(pkg, "src")))) {
    console.log(`start: building packages/${name}`);
    const build = spawnSync(process.execPath, [join(repo, "scripts/build.mjs")], { cwd: pkg, stdio: "inherit" });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  // The Ishiki console page (client/ → dist/), which the console serves prebuilt.
  const page = join(pkg, "dist/index.js");
  if (!existsSync(join(pkg, "client")) || (existsSync(page) && statSync(page).mtimeMs >= newest(join(pkg, "client")))) continue;
  console.log(`start: building the console page of packages/${name}`);
  const build = spawnSync(process.execPath, [join(repo, "scripts/build-console.mjs")], { cwd: pkg, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

await prepareApp({ dir: here, port: Number(process.env.ISHIKI_DEMO_PORT ?? 5140) });
const child = spawn(process.execPath, [join(here, "node_modules/koishi/bin.js"), "start"], {
  cwd: here,
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: process.env.NODE_ENV === "development" ? "production" : process.env.NODE_ENV },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
