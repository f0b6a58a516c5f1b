import { OneBotActionsExtension } from "./extension.js";

export { OneBotActionsExtension };
export { OneBotActionsPluginConfig, OneBotActionsSettings, type AllowRule, type ExposedRisk } from "./settings.js";
export type { ActionCategory, ActionRisk, ActionScope, CatalogEntry, CatalogSchema, Implementation } from "./catalog/catalog-entry.js";
export { catalog } from "./generated/catalog.js";
export { exposedEntries, type Exposure } from "./exposure.js";
export { OneBotScheme } from "./scheme/onebot-scheme.js";
export { OneBotActionError } from "./onebot-client.js";
export { typedToolName } from "./tools/typed-tools.js";
export { onebotInstructions } from "./instructions.js";

export const name = "ishiki-onebot-actions";
export const usage = [
  "Gives each Ishiki runtime whose profile enables `extends.onebot-actions` the OneBot v11 actions of its OneBot",
  "account as tools (`generic`: `onebot_actions` and `onebot_call`; `typed`: one `onebot_<action>` per action), gated by",
  "scope, risk, allow rules, protected admins and an hourly cap, and the read-only `onebot://` resources. Needs the",
  "OneBot adapter (NapCat, LLBot, SnowLuma or any OneBot v11 implementation). See docs/onebot-actions.md.",
].join(" ");
export default OneBotActionsExtension;
