import { Schema } from "koishi";
import type { Context } from "koishi";

/**
 * The name under Koishi's schema service (`ctx.schema`) of a profile's `extends` section. The profile form
 * reads it through `Schema.dynamic`, so the console shows each extension loaded in the app with its own
 * settings; the kernel does not need to know the extension.
 */
export const EXTENDS_FORM = "ishiki.extends";

/**
 * One extension's field in `extends` (spec 08 KP-7, 07 XA-2, XA-3): `{ enable?, config? }` where `config` is
 * the extension's instance Schema (any value when it declares none), or the short forms `true` / `false`.
 * `enable` has no default: an extension is enabled by being listed, not by a value the form shows.
 */
export function extendsEntryForm(name: string, config: Schema | undefined): Schema {
  const described = config?.meta.description;
  const label = typeof described === "object" && described !== null ? (described as Record<string, string>) : undefined;
  const body = Schema.object({
    enable: Schema.boolean(),
    // A copy with its own meta: `i18n` writes into the meta of the Schema it copies, which is the extension's.
    config: config === undefined ? Schema.any() : new Schema({ ...config, meta: { ...config.meta } }),
  }).i18n({
    "zh-CN": {
      $description: "启用并设置",
      enable: "写入 extends 即启用（{}、null、true 或 enable: true）；enable: false 停用。",
      config: `${name} 的实例配置，在 profile 激活时由扩展自己的 Schema 校验。`,
    },
    "en-US": {
      $description: "Enabled, with settings",
      enable: "Listing it under extends enables it ({}, null, true or enable: true); enable: false disables it.",
      config: `Instance settings of ${name}, validated by the extension's own Schema when the profile activates.`,
    },
  });
  const toggle = Schema.boolean().i18n({ "zh-CN": { $description: "只写开关（true 启用，false 停用）" }, "en-US": { $description: "Only a switch (true enables, false disables)" } });
  // First, so that an extension the profile does not list reads as such: the console shows the first variant a
  // value fits, and an absent key fits every variant. Schemastery cannot tell `null` from absent, so the rare
  // `<name>: null` (enabled, KP-7) also reads "not enabled" here; the file keeps it as written.
  const absent = Schema.const(undefined).i18n({ "zh-CN": { $description: "未启用（不写入 extends）" }, "en-US": { $description: "Not enabled (not listed)" } });
  const field = Schema.union([absent, body, toggle]).i18n({
    "zh-CN": "选“启用并设置”启用并填写设置，“只写开关”写 true / false，“未启用”从 extends 中移除。",
    "en-US": "“Enabled, with settings” enables it with settings, “Only a switch” writes true / false, “Not enabled” removes it from extends.",
  });
  // The console titles each part of the `extends` intersection with its description: one section per extension.
  return Schema.object({ [name]: field }).i18n({
    "zh-CN": { $description: label?.["zh-CN"] ?? `扩展 ${name}` },
    "en-US": { $description: label?.["en-US"] ?? `Extension ${name}` },
  });
}

/**
 * Adds extension `name` to the `extends` form for as long as `ctx` lives (Koishi removes it on dispose); the
 * base class calls it once the subclass has set its `Schema`.
 */
export function registerExtendsForm(ctx: Context, name: string, config: Schema | undefined): void {
  ctx.schema.extend(EXTENDS_FORM, extendsEntryForm(name, config));
}
