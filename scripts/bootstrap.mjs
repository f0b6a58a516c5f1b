// `npm test` / `npm start` on a fresh machine: brings pnpm and the dependencies, then runs `pnpm run <script>`.
// A newcomer with only Node and npm types one command and nothing else.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const PNPM = "12.4.2";
const root = fileURLToPath(new URL("..", import.meta.url));
const script = process.argv[2];
if (!script) {
  console.error("bootstrap: name the pnpm script to run; e.g. node scripts/bootstrap.mjs test:all");
  process.exit(2);
}

function pnpmVersion() {
  try {
    return execFileSync("pnpm", ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

if (pnpmVersion() !== PNPM) {
  console.log(`bootstrap: installing pnpm ${PNPM} with npm`);
  execFileSync("npm", ["install", "--global", `pnpm@${PNPM}`], { stdio: "inherit" });
}

// Install when node_modules is missing or older than the lockfile; a warm tree skips straight to the script.
const state = `${root}node_modules/.modules.yaml`;
const lock = `${root}pnpm-lock.yaml`;
if (!existsSync(state) || statSync(state).mtimeMs < statSync(lock).mtimeMs) {
  execFileSync("pnpm", ["install", "--frozen-lockfile"], { cwd: root, stdio: "inherit" });
}

const run = spawnSync("pnpm", ["run", script, ...process.argv.slice(3)], { cwd: root, stdio: "inherit" });
process.exit(run.status ?? 1);
