import { wrapLanguageModel } from "ai";
import type { LanguageModelV4, LanguageModelV4Middleware } from "@ai-sdk/provider";

/**
 * How one runtime's tool calls travel (spec 06 EN-38). `wrap` is called exactly once, at runtime creation, with a
 * model that resolves the gateway's current entry (or an `agent.setModel` replacement) on every call, so model
 * changes need no second wrap. Never mutate the model it receives. Override `wrap` to return a model of your own
 * (multi-stage orchestration).
 */
export abstract class ToolcallEngineInstance {
  protected abstract middleware(): LanguageModelV4Middleware | undefined;

  public wrap(model: LanguageModelV4): LanguageModelV4 {
    const middleware = this.middleware();
    if (middleware === undefined) return model;
    return wrapLanguageModel({ model, middleware });
  }
}
