import { ToolError } from "koishi-plugin-ishiki";
import type { AgentRuntime } from "koishi-plugin-ishiki";
import { claims, claimsGroupWildcard, literalGroups, type OneBotAccount } from "./accounts.js";
import { seenFacts } from "./facts.js";
import type { OneBotClient } from "./onebot-client.js";
import type { Target } from "./target.js";

export const OUTSIDE = "target outside this runtime's channels";

/**
 * OB-12 with `scope: domain`: groups must be claimed by the runtime, users must have a claimed private
 * channel or belong to a claimed group, messages must be in the facts (or sent by this extension).
 */
export class DomainScope {
  public constructor(
    private readonly runtime: () => AgentRuntime | undefined,
    /** Ids of messages this runtime sent through its own OneBot calls; they are not facts (08 KP-34). */
    private readonly sent: ReadonlySet<string>,
  ) {}

  /** Throws `ToolError(OUTSIDE)` unless every part of the target lies in the domain. */
  public async check(account: OneBotAccount, client: OneBotClient, target: Target): Promise<void> {
    if (target.group !== undefined && !claims(account, target.group)) throw new ToolError(OUTSIDE);
    const needsFacts = target.message !== undefined || (target.group === undefined && target.user !== undefined);
    const seen = needsFacts ? await seenFacts(this.runtime(), account.selfId) : undefined;
    if (target.message !== undefined && !seen!.messages.has(target.message) && !this.sent.has(target.message)) throw new ToolError(OUTSIDE);
    if (target.group === undefined && target.user !== undefined) {
      if (claims(account, `private:${target.user}`) || seen!.users.has(target.user)) return;
      if (!(await this.memberOfClaimedGroup(account, client, target.user))) throw new ToolError(OUTSIDE);
    }
  }

  private async memberOfClaimedGroup(account: OneBotAccount, client: OneBotClient, user: string): Promise<boolean> {
    const groups = new Set(literalGroups(account).filter((group) => claims(account, group)));
    if (claimsGroupWildcard(account)) {
      const list = (await client.call("get_group_list", {}).catch(() => [])) as Array<{ group_id?: unknown }>;
      for (const group of Array.isArray(list) ? list : []) if (claims(account, String(group.group_id))) groups.add(String(group.group_id));
    }
    for (const group of groups) {
      const member = await client.call("get_group_member_info", { group_id: group, user_id: user }).catch(() => undefined);
      if (member) return true;
    }
    return false;
  }
}
