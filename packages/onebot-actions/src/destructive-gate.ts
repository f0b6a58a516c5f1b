import { ToolError } from "koishi-plugin-ishiki";
import type { OneBotClient } from "./onebot-client.js";
import type { AllowRule, OneBotActionsSettings } from "./settings.js";
import type { Target } from "./target.js";

const HOUR_MS = 60 * 60 * 1000;
/** The OneBot default of `set_group_ban.duration` when the caller leaves it out. */
const DEFAULT_BAN_SECONDS = 1800;
const BANS = new Set(["set_group_ban", "set_group_anonymous_ban"]);

/** Executions of destructive actions in a rolling hour; shared by the runtimes of one profile (OB-16). */
export class RollingHour {
  private readonly times: number[] = [];

  public count(now = Date.now()): number {
    while (this.times.length > 0 && this.times[0] <= now - HOUR_MS) this.times.shift();
    return this.times.length;
  }

  public record(now = Date.now()): void {
    this.times.push(now);
  }
}

function covers(rule: AllowRule, action: string, target: Target, params: Record<string, unknown>): boolean {
  if (rule.action !== action) return false;
  if (rule.groups && rule.groups.length > 0 && (target.group === undefined || !rule.groups.includes(target.group))) return false;
  if (rule.users && rule.users.length > 0 && (target.user === undefined || !rule.users.includes(target.user))) return false;
  if (rule.maxDuration !== undefined && BANS.has(action)) {
    const duration = params.duration === undefined ? DEFAULT_BAN_SECONDS : Number(params.duration);
    if (!(duration <= rule.maxDuration)) return false;
  }
  return true;
}

/** Whether the call acts on a member whose role `protectAdmins` shields (kick, ban, admin removal). */
function touchesMemberRole(action: string, params: Record<string, unknown>): boolean {
  return action === "set_group_kick" || action === "set_group_ban" || (action === "set_group_admin" && params.enable === false);
}

/** OB-14 and OB-16: the checks a destructive call passes before it runs. */
export class DestructiveGate {
  public constructor(
    private readonly settings: OneBotActionsSettings,
    private readonly hour: RollingHour,
  ) {}

  /** Whether an allow rule runs this call at once (OB-14). */
  public allows(action: string, params: Record<string, unknown>, target: Target): boolean {
    return this.settings.allow.some((rule) => covers(rule, action, target, params));
  }

  /** OB-16: refuses kicking, banning or demoting the owner or an admin when `protectAdmins` is on. */
  public async checkProtected(client: OneBotClient, action: string, params: Record<string, unknown>, target: Target): Promise<void> {
    if (!this.settings.protectAdmins || !touchesMemberRole(action, params) || target.group === undefined || target.user === undefined) return;
    const member = (await client.call("get_group_member_info", { group_id: target.group, user_id: target.user, no_cache: true })) as { role?: string } | null;
    if (member?.role === "owner" || member?.role === "admin") throw new ToolError("refusing to act on a protected member");
  }

  /** OB-16: counts this execution against the rolling hour, or refuses when the cap is reached. */
  public takeHourlySlot(): void {
    if (this.hour.count() >= this.settings.maxDestructivePerHour) throw new ToolError("destructive action limit reached");
    this.hour.record();
  }
}
