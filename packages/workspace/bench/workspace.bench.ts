// Workspace benchmarks (spec 12 QA-15): the first command of a cold sandbox, a warm `echo`, and reading a 10 MB
// file through `workspace://` page by page as direct `read` calls do (first-page reads continued by #offset).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ResourceCenter } from "koishi-plugin-ishiki";
import { Sandbox } from "../src/sandbox.js";
import { WorkspaceScheme } from "../src/schemes/workspace-scheme.js";
import { WorkspaceSettings } from "../src/settings.js";
import { runCommand } from "../src/tools/bash.js";

interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
  pass?: boolean;
}

const PAGE_UNITS = 30_000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const round = (value: number): number => Math.round(value * 100) / 100;

// The shell never touches /home/.ishiki here, so the store is not needed.
const noResources = {} as ResourceCenter;

export default async function run(): Promise<Row[]> {
  const home = await mkdtemp(join(tmpdir(), "ishiki-ws-bench-"));
  try {
    await mkdir(join(home, "workspace"), { recursive: true });
    const settings = new WorkspaceSettings({} as WorkspaceSettings);
    const sandbox = new Sandbox({ home, settings, mounts: [], skills: [], resources: noResources });

    let started = performance.now();
    const first = await runCommand(sandbox, settings, "echo cold");
    const cold = performance.now() - started;
    if (first.stdout !== "cold\n") throw new Error(`unexpected output ${first.stdout}`);

    const warm: number[] = [];
    for (let index = 0; index < 200; index += 1) {
      started = performance.now();
      await runCommand(sandbox, settings, "echo warm");
      warm.push(performance.now() - started);
    }

    const line = `${"lorem ipsum dolor sit amet ".repeat(3).slice(0, 79)}\n`;
    const size = 10 * 1024 * 1024;
    await writeFile(join(home, "workspace", "big.txt"), line.repeat(Math.ceil(size / line.length)));
    const scheme = new WorkspaceScheme(sandbox);
    const url = "workspace:///home/workspace/big.txt";
    const pages: number[] = [];
    let offset = 0;
    const total = performance.now();
    for (;;) {
      started = performance.now();
      const payload = await scheme.resolve(offset === 0 ? url : `${url}#offset=${offset}`, { firstPage: true });
      pages.push(performance.now() - started);
      if (payload.type !== "text" || payload.source === undefined) throw new Error("expected a text page");
      const step = Math.min(payload.text.length, PAGE_UNITS);
      if (step === 0 || offset + step >= payload.source.totalChars) break;
      offset += step;
    }
    const all = performance.now() - total;

    return [
      { measure: "first command, cold sandbox (build + echo)", value: round(cold), unit: "ms" },
      { measure: "warm echo, median of 200", value: round(median(warm)), unit: "ms" },
      { measure: "10 MB via workspace://: first page", value: round(pages[0]), unit: "ms" },
      { measure: "10 MB via workspace://: median page", value: round(median(pages)), unit: "ms" },
      { measure: "10 MB via workspace://: last page", value: round(pages[pages.length - 1]), unit: "ms" },
      { measure: `10 MB via workspace://: all ${pages.length} pages`, value: Math.round(all), unit: "ms" },
    ];
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
