import type { Context, Logger } from "koishi";
import { ToolError } from "koishi-plugin-ishiki";
import type { AgentRuntime } from "koishi-plugin-ishiki";
import type { OneBotAccount } from "./accounts.js";
import type { ApprovalRequester } from "./approvals/pending-approval.js";
import type { CatalogEntry, Implementation } from "./catalog/catalog-entry.js";
import { DestructiveGate, type RollingHour } from "./destructive-gate.js";
import { DomainScope } from "./domain-scope.js";
import { implementationOf } from "./implementation.js";
import { OneBotClient } from "./onebot-client.js";
import type { MediaResolver } from "./publish/media-resolver.js";
import type { OneBotActionsSettings } from "./settings.js";
import { describeTarget, targetOf, type Target } from "./target.js";

/** The caller name nested codemode calls carry in their execution options (05 CT-8). */
const CODEMODE_CALLER = "codemode";
export const CODEMODE_REFUSAL = "destructive OneBot actions must be called directly";

export interface ActionRunnerOptions {
  ctx: Context;
  settings: OneBotActionsSettings;
  accounts: readonly OneBotAccount[];
  runtime: () => AgentRuntime | undefined;
  logger: Logger;
  hour: RollingHour;
  /** Turns resource URLs in file parameters into temporary URLs or base64 (OB-18). */
  media: MediaResolver;
  /** Set when approvals are on (OB-15). */
  approvals?: ApprovalRequester;
}

export interface ActionCall {
  entry: CatalogEntry;
  params: Record<string, unknown>;
  account?: string;
  /** `caller` of the tool's execute options. */
  caller?: unknown;
}

/**
 * Runs catalog actions for one runtime: account choice (OB-1), scope (OB-12), the delete_msg and card
 * escalations (OB-13), the destructive gate (OB-11, OB-14, OB-16), approvals (OB-15) and info logs (OB-17).
 */
export class ActionRunner {
  /** Ids of messages sent through this runtime's calls: they may be recalled or reacted to (scope). */
  private readonly sent = new Set<string>();
  private readonly clients = new Map<string, OneBotClient>();
  private readonly scope: DomainScope;
  private readonly gate: DestructiveGate;
  private detected: Implementation | undefined;

  public constructor(private readonly options: ActionRunnerOptions) {
    this.scope = new DomainScope(options.runtime, this.sent);
    this.gate = new DestructiveGate(options.settings, options.hour);
  }

  public get accounts(): readonly OneBotAccount[] {
    return this.options.accounts;
  }

  /** OB-1: `account` (`onebot:<selfId>`) picks one; it may be left out only when there is one account. */
  public account(name?: string): OneBotAccount {
    const { accounts } = this.options;
    if (name === undefined || name === "") {
      if (accounts.length === 1) return accounts[0];
      throw new ToolError(`account is required: this runtime has several OneBot accounts (${accounts.map((account) => `onebot:${account.selfId}`).join(", ")})`);
    }
    const found = accounts.find((account) => `onebot:${account.selfId}` === name);
    if (!found) throw new ToolError(`account "${name}" is not a OneBot account of this runtime; use onebot:<selfId>`);
    return found;
  }

  public client(account: OneBotAccount): OneBotClient {
    let client = this.clients.get(account.selfId);
    if (!client) this.clients.set(account.selfId, (client = new OneBotClient(this.options.ctx, account.selfId, this.options.settings.timeoutMs)));
    return client;
  }

  /** OB-7: the configured implementation, or the first account's `app_name` detected once at first use. */
  public async implementation(): Promise<Implementation> {
    const configured = this.options.settings.implementation;
    if (configured !== "auto") return configured;
    if (this.detected) return this.detected;
    try {
      const info = (await this.client(this.options.accounts[0]).call("get_version_info", {})) as { app_name?: unknown } | null;
      this.detected = implementationOf(info?.app_name);
      this.options.logger.debug(`OneBot implementation: ${this.detected} (app_name ${String(info?.app_name)})`);
      return this.detected;
    } catch (error) {
      // Not cached: the account may be offline now and answer at the next turn.
      this.options.logger.debug(`OneBot implementation unknown for now: ${(error as Error).message}`);
      return "onebot11";
    }
  }

  public async run(call: ActionCall): Promise<unknown> {
    const { entry, params } = call;
    const codemode = call.caller === CODEMODE_CALLER;
    if (entry.risk === "destructive" && codemode) throw new ToolError(CODEMODE_REFUSAL);
    const account = this.account(call.account);
    const client = this.client(account);
    const target = targetOf(params);
    if (this.options.settings.scope === "domain") await this.scope.check(account, client, target);
    const destructive = entry.risk === "destructive" || (await this.escalates(client, entry.action, params, target));
    if (!destructive) return this.remember(entry.action, await client.call(entry.action, await this.options.media.resolveParams(params, entry.mediaParams)));
    if (codemode) throw new ToolError(CODEMODE_REFUSAL);
    const allowed = this.gate.allows(entry.action, params, target);
    const { approvals } = this.options;
    if (!allowed && !approvals) throw new ToolError(`action "${entry.action}": no allow rule covers this call; add one to the extension's allow list`);
    await this.gate.checkProtected(client, entry.action, params, target);
    const execute = async () => this.executeDestructive(client, entry.action, await this.options.media.resolveParams(params, entry.mediaParams), target);
    if (allowed) return execute();
    return approvals!.request({ action: entry.action, params, target: `${describeTarget(target)} via onebot:${account.selfId}`, execute });
  }

  /** OB-16 cap, the call and its info log (OB-17); approved calls come back here when granted. */
  private async executeDestructive(client: OneBotClient, action: string, params: Record<string, unknown>, target: Target): Promise<unknown> {
    this.gate.takeHourlySlot();
    const subject = `destructive ${action} on ${describeTarget(target)} via onebot:${client.selfId}`;
    try {
      const data = await client.call(action, params);
      this.options.logger.info(`${subject}: succeeded`);
      return data ?? { ok: true };
    } catch (error) {
      this.options.logger.info(`${subject}: failed: ${(error as Error).message}`);
      throw error;
    }
  }

  /** A read for `onebot://` (OB-21): the scope rules apply, the exposure filter does not. */
  public async query(account: OneBotAccount, action: string, params: Record<string, unknown>): Promise<unknown> {
    const client = this.client(account);
    if (this.options.settings.scope === "domain") await this.scope.check(account, client, targetOf(params));
    return client.call(action, params);
  }

  /**
   * OB-13: recalling someone else's message (sender from `get_msg`) and setting another member's card are
   * destructive. Fills the target's group and user from the message so allow rules can match them.
   */
  private async escalates(client: OneBotClient, action: string, params: Record<string, unknown>, target: Target): Promise<boolean> {
    if (action === "set_group_card") return target.user !== client.selfId;
    if (action !== "delete_msg") return false;
    const message = (await client.call("get_msg", { message_id: params.message_id })) as { group_id?: unknown; user_id?: unknown; sender?: { user_id?: unknown } } | null;
    const sender = message?.sender?.user_id ?? message?.user_id;
    if (sender !== undefined && String(sender) === client.selfId) return false;
    if (message?.group_id !== undefined) target.group = String(message.group_id);
    if (sender !== undefined) target.user = String(sender);
    return true;
  }

  private remember(action: string, data: unknown): unknown {
    const id = (data as { message_id?: unknown } | null)?.message_id;
    if (action.startsWith("send_") && id !== undefined) this.sent.add(String(id));
    return data ?? { ok: true };
  }
}
