import type { IshikiMessageCreated } from "../../types/index.js";
import { matchKeyword, mentionsSelf, quotesSelf } from "../shared/index.js";

/** `wakeup.standard` hit rules with their defaults applied (spec 06 EN-26). */
export interface StandardHitRules {
  direct: boolean;
  atSelf: boolean;
  quoteSelf: boolean;
  keywords: string[];
}

/** Which rule a fact hits, or undefined: `direct`, `atSelf`, `quoteSelf` or `keyword:<word>`. */
export function standardHit(fact: IshikiMessageCreated, rules: StandardHitRules): string | undefined {
  if (rules.direct && fact.isDirect) return "direct";
  if (rules.atSelf && mentionsSelf(fact)) return "atSelf";
  if (rules.quoteSelf && quotesSelf(fact)) return "quoteSelf";
  const keyword = matchKeyword(fact, rules.keywords);
  return keyword === undefined ? undefined : `keyword:${keyword}`;
}
