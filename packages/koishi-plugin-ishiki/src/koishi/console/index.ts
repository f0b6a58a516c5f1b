import { existsSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Context } from "koishi";
// Types only: `ctx.console` on the Context. The console's own names are not augmented with ours, as its types come
// in several copies (one per set of its optional peers) and an augmentation reaches only one of them.
import type {} from "@koishijs/plugin-console";
import type { ProfileActivation } from "../profile-activation.js";
import type { ConsoleOverview, SectionPage, TimelinePage, TimelineQuery } from "./contract.js";
import { FactReader, type FactRange } from "./fact-reader.js";
import { OverviewBuilder } from "./overview.js";
import { runtimeStreams } from "./runtime-streams.js";
import { foldRows, rowsOf } from "./timeline.js";

export type * from "./contract.js";

/** Koishi's admin authority: the page and its data are for the bot's operators only (issue 21). */
export const CONSOLE_AUTHORITY = 4;
const PAGE_FACTS = 100;
const MAX_PAGE_FACTS = 500;
const SECTION_PAGE_CHARS = 8_000;

/** What the console side needs of the kernel service. */
export interface ConsoleKernel {
  profiles(): ProfileActivation[];
}

/**
 * The Ishiki page of the Koishi console (issue 21), while `@koishijs/plugin-console` is loaded (an optional
 * service: the kernel runs the same without it). Registers the client entry, the `ishiki` data service with the
 * overview, and three read-only listeners; all of them need admin authority, which the console checks through
 * `console/intercept` (plugin-auth). Nothing registered here writes to a fact stream.
 */
export function attachConsole(ctx: Context, kernel: ConsoleKernel): void {
  ctx.inject(["console"], async (ctx) => {
    // A value import of the console only once it is loaded: the plugin must load in an app without it.
    const { DataService } = await import("@koishijs/plugin-console");
    const reader = new FactReader();
    const overview = new OverviewBuilder(reader);
    const build = () => overview.build(kernel.profiles());

    const root = packageRoot(ctx.baseDir);
    ctx.console.addEntry({ dev: join(root, "client/index.ts"), prod: join(root, "dist") });

    ctx.plugin(class IshikiConsoleData extends DataService<ConsoleOverview> {
      public constructor(ctx: Context) {
        super(ctx, "ishiki" as never, { authority: CONSOLE_AUTHORITY });
      }

      public override get(): Promise<ConsoleOverview> {
        return build();
      }
    });

    const streamOf = async (runtimeId: string) => {
      if (typeof runtimeId !== "string") throw new Error("runtime id must be a string");
      for (const activation of kernel.profiles()) {
        if (!runtimeId.startsWith(`${activation.profile.id}/`)) continue;
        const stream = (await runtimeStreams(activation)).find((candidate) => candidate.id === runtimeId);
        if (stream) return stream;
      }
      throw new Error(`no runtime ${runtimeId}`);
    };

    const listeners = {
      "ishiki/overview": build,
      "ishiki/timeline": async (runtimeId: string, query: TimelineQuery = {}): Promise<TimelinePage> => {
        const path = (await streamOf(runtimeId)).path;
        const limit = Math.min(Math.max(1, Math.floor(Number(query.limit ?? PAGE_FACTS)) || PAGE_FACTS), MAX_PAGE_FACTS);
        let range: FactRange = { last: limit };
        if (query.after !== undefined) {
          const from = Math.max(0, Math.floor(Number(query.after)) || 0);
          range = { from, to: from + limit };
        } else if (query.before !== undefined) {
          const to = Math.max(0, (Math.floor(Number(query.before)) || 1) - 1);
          range = { from: Math.max(0, to - limit), to };
        }
        const { entries, from, total } = await reader.slice(path, range);
        const rows = entries.flatMap((entry, index) => rowsOf(entry, from + index + 1));
        return { runtimeId, rows: foldRows(rows), total };
      },
      "ishiki/section": async (runtimeId: string, seq: number, row: number, section: number, offset: number): Promise<SectionPage> => {
        const position = Math.floor(Number(seq)) - 1;
        const { entries } = position >= 0 ? await reader.slice((await streamOf(runtimeId)).path, { from: position, to: position + 1 }) : { entries: [] };
        const entry = entries[0];
        const text = entry === undefined ? undefined : rowsOf(entry, Number(seq))[Number(row)]?.sections[Number(section)]?.text;
        if (text === undefined) throw new Error(`no section ${section} of row ${row} of fact ${seq} in ${runtimeId}`);
        const start = Math.min(Math.max(0, Math.floor(Number(offset)) || 0), text.length);
        return { text: text.slice(start, start + SECTION_PAGE_CHARS), offset: start, length: text.length };
      },
    } as const;
    // The console keeps listeners past their plugin's dispose; take ours back with the fork. The console is held
    // here (a disposed fork no longer reaches `ctx.console`), and so is the entry it stored, which wraps our callback.
    const consoleService = ctx.console;
    for (const [name, callback] of Object.entries(listeners)) {
      ctx.effect(() => {
        consoleService.addListener(name as never, callback as never, { authority: CONSOLE_AUTHORITY });
        const entry = consoleService.listeners[name];
        return () => {
          if (consoleService.listeners[name] === entry) delete consoleService.listeners[name];
        };
      });
    }
  });
}

/**
 * The package folder (with `dist/`, the built page, and `client/`): found upwards from this module, which is
 * `lib/index.cjs` when published and `src/koishi/console/index.ts` when run from source. The console serves
 * plugin files only from paths through a `node_modules` folder, and Node hands modules their real path: a
 * package linked into the app (a workspace, `npm link`) is named by the app's link to it when there is one.
 */
function packageRoot(baseDir: string): string {
  let dir = __dirname;
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  const linked = join(baseDir, "node_modules", "koishi-plugin-ishiki");
  try {
    if (realpathSync(linked) === realpathSync(dir)) return linked;
  } catch {
    // No link in the app: the package is installed where it was found.
  }
  return resolve(dir);
}
