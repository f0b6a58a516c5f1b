import type { Context } from "koishi";
import { NarrativeContextEngine } from "../engines/context/narrative.js";
import { StandardContextEngine } from "../engines/context/standard.js";
import { V3ContextEngine } from "../engines/context/v3.js";
import { NarrativeToolcallEngine } from "../engines/toolcall/narrative.js";
import { NativeToolcallEngine } from "../engines/toolcall/native.js";
import { HermesToolcallEngine, MorphXmlToolcallEngine, Qwen3CoderToolcallEngine, YamlXmlToolcallEngine } from "../engines/toolcall/text-protocol.js";
import { V3ToolcallEngine } from "../engines/toolcall/v3.js";
import { JudgeWakeupEngine, StandardWakeupEngine, V3WakeupEngine } from "../engines/wakeup/index.js";

/** Registers the built-in engine variants as services (spec 06 EN-4); custom variants register themselves. */
export function registerBuiltinEngines(ctx: Context): void {
  for (const engine of [StandardContextEngine, V3ContextEngine, NarrativeContextEngine]) ctx.plugin(engine);
  for (const engine of [StandardWakeupEngine, V3WakeupEngine, JudgeWakeupEngine]) ctx.plugin(engine);
  const toolcall = [NativeToolcallEngine, HermesToolcallEngine, MorphXmlToolcallEngine, Qwen3CoderToolcallEngine, YamlXmlToolcallEngine, V3ToolcallEngine, NarrativeToolcallEngine];
  for (const engine of toolcall) ctx.plugin(engine);
}
