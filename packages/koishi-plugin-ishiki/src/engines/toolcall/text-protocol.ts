import type { Context } from "koishi";
import { z } from "zod";
import type { ExtensionHost } from "../../extension/index.js";
import { validateBlock, type ValidatedBlock, type ValidatingEngine } from "../block-validation.js";
import { ToolcallEngine } from "../toolcall-engine.js";
import { validateWithZod } from "../shared/index.js";
import type { TextProtocolName } from "./text-protocol-formats.js";
import { TextProtocolToolcallInstance } from "./text-protocol-instance.js";

/** A text tool-call protocol (spec 06 EN-40), read by our own parser; its block takes no settings. */
export abstract class TextProtocolToolcallEngine<N extends TextProtocolName> extends ToolcallEngine<N> implements ValidatingEngine {
  public [validateBlock](block: unknown): ValidatedBlock {
    return validateWithZod(`toolcall.${this.engineName}`, z.object({}), block);
  }

  public [ToolcallEngine.invoke](host: ExtensionHost): TextProtocolToolcallInstance {
    return new TextProtocolToolcallInstance(this.engineName, host.logger);
  }
}

/** `<tool_call>{"name", "arguments"}</tool_call>` (Hermes / NousResearch, Qwen2.5). */
export class HermesToolcallEngine extends TextProtocolToolcallEngine<"hermes"> {
  public constructor(ctx: Context) {
    super(ctx, "hermes");
  }
}

/** One XML element per call, named after the tool, one child element per parameter. */
export class MorphXmlToolcallEngine extends TextProtocolToolcallEngine<"morph-xml"> {
  public constructor(ctx: Context) {
    super(ctx, "morph-xml");
  }
}

/** `<tool_call><function=name><parameter=key>value</parameter></function></tool_call>` (Qwen3-Coder). */
export class Qwen3CoderToolcallEngine extends TextProtocolToolcallEngine<"qwen3coder"> {
  public constructor(ctx: Context) {
    super(ctx, "qwen3coder");
  }
}

/** One XML element per call, named after the tool, with YAML parameters inside. */
export class YamlXmlToolcallEngine extends TextProtocolToolcallEngine<"yaml-xml"> {
  public constructor(ctx: Context) {
    super(ctx, "yaml-xml");
  }
}
