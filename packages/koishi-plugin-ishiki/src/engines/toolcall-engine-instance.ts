import { wrapLanguageModel } from "ai";
import type { LanguageModelV4, LanguageModelV4Middleware } from "@ai-sdk/provider";

/**
 * How one runtime's tool calls travel (spec 06 EN-38). `wrap` is called once at runtime creation and again,
 * with the same instance, at the next step after a model change. Never mutate the model it receives: several
 * runtimes share it. Override `wrap` to return a model of your own (multi-stage orchestration).
 */
export abstract class ToolcallEngineInstance {
  protected abstract middleware(): LanguageModelV4Middleware | undefined;

  public wrap(model: LanguageModelV4): LanguageModelV4 {
    const middleware = this.middleware();
    if (middleware === undefined) return model;
    return wrapLanguageModel({ model, middleware });
  }
}
