import type { Agent, AgentEvent } from "@yesimagent/core";
import { mentionsSelf, quotesSelf } from "../engines/shared/index.js";
import type { IshikiMessageCreated } from "../types/index.js";

/** A fact that speaks to the bot itself: a private chat, an `<at>` of the bot, or a quote of its message. */
export function addressesBot(fact: IshikiMessageCreated): boolean {
  return fact.isDirect || mentionsSelf(fact) || quotesSelf(fact);
}

/**
 * The agent as a wakeup engine sees it while a budget may hold wakes back (issue 22): `continue()` goes
 * through only while `open()` holds or a fact addressing the bot arrived since the last turn started;
 * otherwise it opens nothing and `dropped()` is told, with the newest message fact (the one the wake was for). Everything else is the agent itself, so engines keep
 * working unchanged; `wait`, explicit wakes and the owner's `runtime.wake` are not gated.
 */
export function gateWakes(agent: Agent, open: () => boolean, dropped: (latest: IshikiMessageCreated | undefined) => void): { agent: Agent; dispose(): void } {
  let addressed = false;
  let latest: IshikiMessageCreated | undefined;
  const unsubscribe = agent.channel.subscribe("agent", (event: AgentEvent) => {
    if (event.type === "turn.start") addressed = false;
    else if (event.type === "message.appended" && event.message.role === "custom" && event.message.type === "ishiki.message.created") {
      latest = event.message.data;
      if (addressesBot(latest)) addressed = true;
    }
  });
  const gated: Agent["continue"] = (prompt) => {
    if (open() || addressed) return agent.continue(prompt);
    dropped(latest);
    return undefined;
  };
  const view = new Proxy(agent, {
    get(target, key) {
      if (key === "continue") return gated;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { agent: view, dispose: unsubscribe };
}
