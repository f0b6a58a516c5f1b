import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Middleware } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";
import type { Context } from "koishi";
import { z } from "zod";
import { validateBlock, type ValidatedBlock, type ValidatingEngine } from "../block-validation.js";
import { ToolcallEngine } from "../toolcall-engine.js";
import { ToolcallEngineInstance } from "../toolcall-engine-instance.js";
import { validateWithZod } from "../shared/index.js";
import { sanitizeGeminiSchema } from "./gemini-schema.js";

/**
 * Native tool calls (spec 06 EN-39): the model is used as is, except that Google's Generative AI accepts only a
 * subset of JSON Schema, so tool schemas are reduced to it.
 */
export class NativeToolcallInstance extends ToolcallEngineInstance {
  protected middleware(): LanguageModelV4Middleware | undefined {
    return undefined;
  }

  public override wrap(model: LanguageModelV4): LanguageModelV4 {
    if (!model.provider.startsWith("google.generative-ai") && !model.provider.startsWith("google-generative-ai")) return model;
    return wrapLanguageModel({ model, middleware: geminiToolSchemas });
  }
}

const geminiToolSchemas: LanguageModelV4Middleware = {
  specificationVersion: "v4",
  transformParams: async ({ params }): Promise<LanguageModelV4CallOptions> => {
    if (params.tools === undefined) return params;
    return {
      ...params,
      tools: params.tools.map((tool) => (tool.type === "function" ? { ...tool, inputSchema: sanitizeGeminiSchema(tool.inputSchema) } : tool)),
    };
  },
};

export class NativeToolcallEngine extends ToolcallEngine<"native"> implements ValidatingEngine {
  public constructor(ctx: Context) {
    super(ctx, "native");
  }

  public [validateBlock](block: unknown): ValidatedBlock {
    return validateWithZod("toolcall.native", z.object({}), block);
  }

  public [ToolcallEngine.invoke](): ToolcallEngineInstance {
    return new NativeToolcallInstance();
  }
}
