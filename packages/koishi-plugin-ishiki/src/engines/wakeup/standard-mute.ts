import type { IshikiMessageCreated } from "../../types/index.js";
import { matchKeyword, mentionsSelf, quotesSelf } from "../shared/index.js";
import type { StandardWakeupOptions } from "./standard-block.js";
import { standardHit } from "./standard-hit.js";

/** What one fact means to the standard engine: a hit with its rule, a mute change, or nothing. */
export type StandardVerdict = { kind: "hit"; rule: string } | { kind: "muted"; until: number } | { kind: "none"; reason?: string };

/** The fact speaks to the bot: private chat, an `<at>` of the bot or a quote of it (spec 06 EN-29). */
function addressesSelf(fact: IshikiMessageCreated): boolean {
  return fact.isDirect || mentionsSelf(fact) || quotesSelf(fact);
}

/**
 * Channel mute state in memory (spec 06 EN-29): an addressed fact with a mute keyword silences its channel for
 * `muteMinutes`; while muted only an addressed fact with an unmute keyword wakes, and lifts the mute.
 * `ignoreUsers` never wake. Keys are `platform:selfId/channelId` (EN-30).
 */
export class StandardMutes {
  private readonly mutedUntil = new Map<string, number>();

  public constructor(private readonly options: StandardWakeupOptions) {}

  public judge(key: string, fact: IshikiMessageCreated, now: number): StandardVerdict {
    const { options } = this;
    if (options.ignoreUsers.includes(fact.user.id)) return { kind: "none", reason: "ignored user" };
    const until = this.mutedUntil.get(key);
    if (until !== undefined && until <= now) this.mutedUntil.delete(key);
    const addressed = addressesSelf(fact);
    if (until !== undefined && until > now) {
      const unmute = addressed ? matchKeyword(fact, options.unmuteKeywords) : undefined;
      if (unmute === undefined) return { kind: "none", reason: "channel muted" };
      this.mutedUntil.delete(key);
      return { kind: "hit", rule: `unmute:${unmute}` };
    }
    if (addressed && matchKeyword(fact, options.muteKeywords) !== undefined) {
      const muted = now + options.muteMinutes * 60_000;
      this.mutedUntil.set(key, muted);
      return { kind: "muted", until: muted };
    }
    const rule = standardHit(fact, options);
    return rule === undefined ? { kind: "none" } : { kind: "hit", rule };
  }

  /** Whether any channel is muted at `now`. */
  public active(now: number): boolean {
    for (const until of this.mutedUntil.values()) if (until > now) return true;
    return false;
  }

  public clear(): void {
    this.mutedUntil.clear();
  }
}
