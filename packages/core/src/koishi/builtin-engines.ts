import type { Context } from "koishi";
import { NarrativeContextEngine } from "../engines/context/narrative.js";
import { StandardContextEngine } from "../engines/context/standard.js";
import { NarrativeToolcallEngine } from "../engines/toolcall/narrative.js";
import { NativeToolcallEngine } from "../engines/toolcall/native.js";
import { StandardWakeupEngine } from "../engines/wakeup/standard.js";

/** Registers the built-in engine variants as services (spec 06 EN-4); custom variants register themselves. */
export function registerBuiltinEngines(ctx: Context): void {
  ctx.plugin(StandardContextEngine);
  ctx.plugin(NarrativeContextEngine);
  ctx.plugin(StandardWakeupEngine);
  ctx.plugin(NativeToolcallEngine);
  ctx.plugin(NarrativeToolcallEngine);
}
