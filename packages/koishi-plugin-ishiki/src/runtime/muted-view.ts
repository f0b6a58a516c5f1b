import type { Agent, AgentChannel, AgentEvent } from "@yesimagent/core";
import { channelKey } from "../engines/wakeup/channel-key.js";
import { createdFact } from "../engines/wakeup/created-fact.js";
import type { WakeupReport } from "../engines/index.js";
import { UNTIL_UNMUTED, type ChannelMutes } from "./channel-mutes.js";

/**
 * The agent as the wakeup engine sees it (issue 22): `ishiki.message.created` facts of a channel the owner muted
 * never reach the engine's listeners, whatever the engine (built-in or third-party), and each is reported once
 * as a `mute` decision. Facts are still stored, turns still run; everything else is the agent itself.
 */
export function mutedView(agent: Agent, mutes: ChannelMutes, report: (report: WakeupReport) => void, debug: (line: string) => void): Agent {
  // An engine subscribes several listeners (its own, the pending-hit rule's): decide once per event.
  let last: AgentEvent | undefined;
  let hidden = false;
  const hide = (event: AgentEvent): boolean => {
    if (event === last) return hidden;
    last = event;
    const created = createdFact(event);
    const until = created === undefined ? undefined : mutes.mutedUntil(channelKey(created.fact));
    hidden = until !== undefined;
    if (created !== undefined && until !== undefined) {
      debug(`message ${created.fact.messageId} of muted channel ${channelKey(created.fact)} not shown to the wakeup engine`);
      report({ outcome: "quiet", rule: "mute", detail: until >= UNTIL_UNMUTED ? "muted by the owner until ishiki.unmute" : `muted by the owner until ${new Date(until).toISOString()}`, channel: channelKey(created.fact), seq: created.seq, messageId: created.fact.messageId });
    }
    return hidden;
  };
  const channel = Object.create(agent.channel) as AgentChannel;
  channel.subscribe = ((name, listener) => {
    if (name !== "agent") return agent.channel.subscribe(name, listener);
    return agent.channel.subscribe("agent", (event: AgentEvent) => (hide(event) ? undefined : (listener as (event: AgentEvent) => unknown)(event)));
  }) as AgentChannel["subscribe"];
  return new Proxy(agent, {
    get(target, property) {
      if (property === "channel") return channel;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
