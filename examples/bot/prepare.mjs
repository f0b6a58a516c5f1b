// Writes a runnable demo app into `dir`: koishi.yml from the pristine copy (with an optional port) and the seed
// notes the demo journey reads. Used by start.mjs and by the KP-42 test.
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

export const NOTES = `Notes from the planning call:
- buy oat milk
- renew the domain before Friday
- book the meeting room for the retro
`;

export async function prepareApp({ dir = here, port = 5140 } = {}) {
  const pristine = await readFile(join(here, "koishi.pristine.yml"), "utf8");
  await writeFile(join(dir, "koishi.yml"), pristine.replace(/^    port: 5140$/m, `    port: ${port}`));
  if (dir !== here) await copyFile(join(here, "demo-model.cjs"), join(dir, "demo-model.cjs"));
  const notes = join(dir, "data/ishiki/profiles/demo/notes");
  await mkdir(notes, { recursive: true });
  if (!existsSync(join(notes, "notes.txt"))) await writeFile(join(notes, "notes.txt"), NOTES);
}
