import type { Context } from "koishi";
import { StandardContextEngine } from "../engines/context/standard.js";
import { NativeToolcallEngine } from "../engines/toolcall/native.js";
import { StandardWakeupEngine } from "../engines/wakeup/standard.js";

/** Registers the built-in engine variants as services (spec 06 EN-4); custom variants register themselves. */
export function registerBuiltinEngines(ctx: Context): void {
  ctx.plugin(StandardContextEngine);
  ctx.plugin(StandardWakeupEngine);
  ctx.plugin(NativeToolcallEngine);
}
