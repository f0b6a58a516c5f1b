import { Schema } from "koishi";

/** A label in both console languages. */
export interface FormText {
  "zh-CN": string;
  "en-US": string;
}

const ENGINE_FIELD: FormText = { "zh-CN": "引擎变体名。", "en-US": "Engine variant name." };

/**
 * One variant of an engine section (spec 06 EN-3): `{ engine: <name>, <name>: <block> }`. The default variant
 * accepts a missing `engine`; the others need theirs. Each variant defaults to `{ engine: <name> }`, which is
 * what the console writes when the variant is picked, so the pick sticks (the console selects the first
 * variant its value fits).
 */
export function engineVariant(name: string, label: FormText, block?: Schema, isDefault = false): Schema {
  const engine = isDefault ? Schema.const(name).default(name) : Schema.const(name).required();
  const dict: Record<string, Schema> = { engine: engine.i18n(ENGINE_FIELD) };
  if (block !== undefined) dict[name] = block;
  return Schema.object(dict)
    .default({ engine: name })
    .i18n({ "zh-CN": { $description: label["zh-CN"] }, "en-US": { $description: label["en-US"] } });
}

/**
 * A variant another plugin registered (spec 06 EN-1): its name is typed in, its block is kept as written and
 * passed to it whole. The placeholder `engine: ""` keeps this variant selected until a name is typed.
 */
export function customEngineVariant(family: FormText): Schema {
  return Schema.object({ engine: Schema.string().required().i18n(ENGINE_FIELD) })
    .default({ engine: "" })
    .i18n({
      "zh-CN": { $description: `其他（插件注册的${family["zh-CN"]}引擎，配置块原样传入）` },
      "en-US": { $description: `Other (a ${family["en-US"]} engine a plugin registered; block passed as written)` },
    });
}

/** A block's description and its fields' descriptions, in both languages. */
export function blockText(description: FormText, zh: Record<string, unknown>, en: Record<string, unknown>): Record<string, unknown> {
  return { "zh-CN": { $description: description["zh-CN"], ...zh }, "en-US": { $description: description["en-US"], ...en } };
}
