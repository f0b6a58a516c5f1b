import type { Context, Logger, Session } from "koishi";
import type { RuntimeDomain } from "../extension/index.js";
import { claimsChannel } from "../profile/index.js";
import { runtimeIdOf, type Runtime } from "../runtime/index.js";
import { DeliveryDedup } from "./delivery-dedup.js";
import { isKernelCommand } from "./kernel-command.js";
import type { ProfileActivation } from "./profile-activation.js";
import { sessionFact } from "./session-fact.js";

/**
 * Session ingestion (spec 08 KP-12, KP-23 .. KP-29): every Koishi session is turned into a fact, routed to the
 * first active profile in id order that claims its channel, and delivered to that profile's runtime, which is
 * created on first use. Unclaimed sessions are dropped before any runtime or disk write exists.
 */
export function listenToSessions(ctx: Context, activations: () => Iterable<ProfileActivation>, logger: Logger): () => void {
  const dedup = new DeliveryDedup();
  // Facts of one runtime are delivered in arrival order even though media capture takes a varying time.
  const tails = new Map<string, Promise<void>>();
  let unclaimed = 0;
  return ctx.on("internal/session", (session: Session) => {
    const fact = sessionFact(session);
    if (fact === undefined) return;
    const { platform, selfId, channelId, messageId } = fact.data as { platform: string; selfId: string; channelId: string; messageId: string };
    const activation = route(activations(), platform, selfId, channelId);
    if (activation === undefined) {
      // Counted and visible at logLevel 3, so a claim that matches nothing can be told from a quiet chat.
      unclaimed += 1;
      logger.debug(`${fact.type} on ${platform}:${selfId}/${channelId} claimed by no active profile (${unclaimed} unclaimed so far)`);
      return;
    }
    if (fact.type === "ishiki.message.created" && !dedup.admit(platform, selfId, channelId, messageId)) return;
    if (fact.type === "ishiki.message.created" && isKernelCommand(ctx, session)) {
      logger.debug(`${platform}:${selfId}/${channelId} message ${messageId} is a kernel command, not stored as a fact`);
      return;
    }
    const domain = domainOf(activation, session);
    const key = JSON.stringify([activation.profile.id, domain.mode === "cross" ? "main" : [platform, selfId, channelId]]);
    const tail = (tails.get(key) ?? Promise.resolve())
      .then(() => activation.runtime(domain))
      .then((runtime: Runtime) => runtime.deliver(fact))
      // Every delivered fact is acted on or leaves this line; the runtime registry adds its creation error once a minute.
      .catch((error: unknown) => logger.warn(`[${runtimeIdOf(activation.profile.id, domain)}] ${fact.type} ${messageId} dropped: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
    tails.set(key, tail);
  });
}

/** The first active profile (id order) whose claims cover the channel (KP-12). */
export function route(activations: Iterable<ProfileActivation>, platform: string, selfId: string, channelId: string): ProfileActivation | undefined {
  for (const activation of activations) {
    if (activation.status === "active" && claimsChannel(activation.profile.claims, platform, selfId, channelId)) return activation;
  }
  return undefined;
}

/** Channel mode: the session's channel; cross mode: every claimed account (KP-13). */
export function domainOf(activation: ProfileActivation, session: Session): RuntimeDomain {
  const { profile } = activation;
  if (profile.mode === "cross") return { mode: "cross", accounts: profile.channels };
  const domain: RuntimeDomain = { mode: "channel", platform: session.platform, selfId: session.selfId, channelId: session.channelId!, isDirect: session.isDirect === true || session.channelId!.startsWith("private:") };
  if (session.guildId) domain.guildId = session.guildId;
  return domain;
}
