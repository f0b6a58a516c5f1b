import type * as QuickJS from "quickjs-emscripten";
import { workerScript } from "./worker-source.js";

let loading: Promise<void> | undefined;

/**
 * Loads the QuickJS module the sandbox workers use, once per process (spec 08 KP-39): a profile with codemode
 * awaits it at activation, so a build that cannot load QuickJS fails that profile up front instead of its
 * first program. The module is not kept (workers load their own); the outcome, success or failure, is cached.
 * Rejects with `codemode: QuickJS cannot load: <reason>`.
 */
export function checkQuickJSLoads(): Promise<void> {
  loading ??= (async () => {
    try {
      const { quickjsPath } = workerScript();
      const quickjs = require(quickjsPath) as typeof QuickJS;
      await quickjs.newQuickJSWASMModule(quickjs.RELEASE_SYNC);
    } catch (error) {
      throw new Error(`codemode: QuickJS cannot load: ${error instanceof Error ? error.message : String(error)}`);
    }
  })();
  return loading;
}
