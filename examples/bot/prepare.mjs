// Writes a runnable demo app into `dir`: koishi.yml from the pristine copy (with an optional port) and, for a copy
// outside this directory, the local plugins with the seed notes they put at /home/workspace/notes.txt. Used by
// start.mjs and by the KP-42 test.
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** The files a copy of the demo needs beside koishi.yml (the loader and the market read package.json). */
export const DEMO_FILES = ["package.json", "demo-model.cjs", "demo-notes.cjs", "notes.txt"];

export async function prepareApp({ dir = here, port = 5140 } = {}) {
  const pristine = await readFile(join(here, "koishi.pristine.yml"), "utf8");
  await writeFile(join(dir, "koishi.yml"), pristine.replace(/^    port: 5140$/m, `    port: ${port}`));
  if (dir !== here) for (const file of DEMO_FILES) await copyFile(join(here, file), join(dir, file));
}
