import { guestPathFinder, guestPrelude } from "./worker/guest-prelude.js";
import { guestValues } from "./worker/guest-values.js";
import { workerMain } from "./worker/worker-main.js";

/**
 * The worker is started from source text (`new Worker(text, { eval: true })`) rather than from a file: the
 * published package is one CommonJS bundle (lib/index.cjs) with no separate worker entry, and under vitest the
 * sources are TypeScript that a plain worker could not load. The text is the compiled `workerMain` function,
 * which is self-contained (it receives the equally self-contained `guestValues`); the only file it loads
 * is quickjs-emscripten, by an absolute path the host resolves
 * from its own location, so the worker never depends on the process's working directory.
 */
export interface WorkerScript {
  readonly source: string;
  readonly quickjsPath: string;
  readonly prelude: string;
  readonly pathFinder: string;
}

let script: WorkerScript | undefined;

export function workerScript(): WorkerScript {
  script ??= {
    source: `(${workerMain.toString()})(require, ${guestValues.toString()});`,
    quickjsPath: hostRequire().resolve("quickjs-emscripten"),
    prelude: `(${guestPrelude.toString()})`,
    pathFinder: `(${guestPathFinder.toString()})`,
  };
  return script;
}

/** A `require` that resolves from this package: the CommonJS bundle, vitest and the benchmarks all provide one. */
function hostRequire(): NodeJS.Require {
  if (typeof require !== "function" || typeof require.resolve !== "function") {
    throw new Error("codemode: no CommonJS require to locate quickjs-emscripten; load the published CommonJS build");
  }
  return require;
}
