import type { OneBotAccount } from "./accounts.js";
import { approvalsOn } from "./exposure.js";
import type { OneBotActionsSettings } from "./settings.js";

function destructive(settings: OneBotActionsSettings): string {
  const base = "Destructive actions (kick, ban, recalling others' messages, deletions) are never run from codemode programs and run at once only when the bot's allow rules cover the exact call";
  if (!approvalsOn(settings)) return `${base}; a refusal is final, do not retry it.`;
  return `${base}. Otherwise the call returns { status: "pending_approval", approvalId }: a human approver decides, and you are woken with "Approval <id> granted by …", "… denied …" or "… expired …". Do not repeat the call meanwhile.`;
}

/** OB-23: the `## OneBot actions` section of the runtime's instructions. */
export function onebotInstructions(settings: OneBotActionsSettings, accounts: readonly OneBotAccount[]): string {
  const tools =
    settings.mode === "generic"
      ? "Find actions with `onebot_actions { query?, category? }`, then run one with `onebot_call { action, params }`."
      : "Each action is its own tool `onebot_<action>`.";
  const scope =
    settings.scope === "domain"
      ? "Actions may only target this runtime's groups, its users and messages seen here; others fail with `target outside this runtime's channels`."
      : "Actions may target anything the account can reach.";
  const account = accounts.length > 1 ? ` Pass \`account\` ("onebot:<selfId>": ${accounts.map((item) => `onebot:${item.selfId}`).join(", ")}).` : "";
  const self = accounts[0]?.selfId ?? "<selfId>";
  return [
    "## OneBot actions",
    `${tools}${account} Categories: ${settings.categories.join(", ")}; risk up to ${settings.maxRisk}.`,
    scope,
    destructive(settings),
    `Read OneBot data with \`read\`: \`onebot://${self}/group/<gid>\`, \`.../group/<gid>/members\` (JSON Lines: page with \`:1-50\`), \`.../group/<gid>/member/<uid>\`, \`.../group/<gid>/files\`, \`.../msg/<id>\`, \`.../forward/<id>\`, \`.../image/<file>\`; add \`?view=meta\` to describe without fetching.`,
  ].join("\n");
}
