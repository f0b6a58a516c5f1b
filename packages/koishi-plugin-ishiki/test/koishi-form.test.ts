// Issue 21, the console form: every key of the plugin's config is a described field, providers and engine
// sections are unions whose variants the console can pick and keep, extensions add their own settings through
// Koishi's schema service, and the configs people really write pass the form and come back from koishi.yml
// unchanged. `form-support.ts` reproduces what the console does with a Schema.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Context, Schema, Service } from "koishi";
import { parse, stringify } from "yaml";
import { afterEach, describe, expect, it } from "vitest";
import { NarrativeContextEngine } from "../src/engines/context/narrative.js";
import { StandardContextEngine } from "../src/engines/context/standard.js";
import { V3ContextEngine } from "../src/engines/context/v3.js";
import { NarrativeToolcallEngine } from "../src/engines/toolcall/narrative.js";
import { JudgeWakeupEngine, StandardWakeupEngine, V3WakeupEngine } from "../src/engines/wakeup/index.js";
import { validateBlock, type ValidatingEngine } from "../src/engines/index.js";
import { EXTENDS_FORM, Extension, extendsEntryForm, type ExtensionInstance } from "../src/extension/index.js";
import { IshikiConfig } from "../src/koishi/config.js";
import { ProfileSchema } from "../src/koishi/profile-schema.js";
import { asConsoleSees, extensionField, label, resolveDynamic, shownVariant, undescribedFields, unions } from "./form-support.js";
import { stopApp } from "./stop-app.js";

const repo = fileURLToPath(new URL("../../..", import.meta.url));
const PROFILE_KEYS = new Set(Object.keys(ProfileSchema.dict!));
const BASE_PROFILE = { model: "relay:qwen-plus", channels: { "onebot:123456": ["*"] } };

type Config = Record<string, unknown>;

/** The `plugins.ishiki` value of a koishi.yml (the loader may have added an `:ident` suffix). */
function ishikiOf(document: Config): Config | undefined {
  const plugins = document.plugins as Config | undefined;
  const key = Object.keys(plugins ?? {}).find((name) => /^ishiki(:|$)/.test(name));
  return key === undefined ? undefined : ((plugins![key] ?? {}) as Config);
}

/** A docs YAML sample as a whole plugin config: full koishi.yml excerpts, models, profile fragments. */
function asPluginConfig(sample: Config): Config | undefined {
  if (sample.plugins) return ishikiOf(sample);
  const keys = Object.keys(sample);
  if (keys.includes("providers") || keys.includes("groups")) return { models: sample };
  if (keys.includes("profiles")) return sample;
  if (keys.length === 1 && keys[0] === "models" && !Array.isArray(sample.models)) return sample;
  if (keys.every((key) => PROFILE_KEYS.has(key))) return { profiles: { sample: { ...BASE_PROFILE, ...sample } } };
  // `alice:` with a profile's keys below it: a fragment of `profiles`.
  const fragments = Object.values(sample).every((value) => typeof value === "object" && value !== null && Object.keys(value).every((key) => PROFILE_KEYS.has(key)));
  if (fragments) return { profiles: Object.fromEntries(Object.entries(sample).map(([id, value]) => [id, { ...BASE_PROFILE, ...(value as Config) }])) };
  return undefined;
}

/** `{ ... }` in the docs stands for "as above". */
function hasPlaceholder(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  return Object.entries(value).some(([key, inner]) => key.startsWith("...") || hasPlaceholder(inner));
}

/** The real configs: the demo's koishi.pristine.yml, every ishiki sample of docs/, and the spec's examples. */
function realConfigs(): Array<[string, Config]> {
  const configs: Array<[string, Config]> = [["examples/bot/koishi.pristine.yml", ishikiOf(parse(readFileSync(join(repo, "examples/bot/koishi.pristine.yml"), "utf8")))!]];
  for (const file of readdirSync(join(repo, "docs")).filter((name) => name.endsWith(".md")).sort()) {
    const text = readFileSync(join(repo, "docs", file), "utf8");
    [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].forEach(([, block], index) => {
      const sample = parse(block) as Config | null;
      if (sample === null || typeof sample !== "object" || hasPlaceholder(sample)) return;
      const config = asPluginConfig(sample);
      if (config !== undefined) configs.push([`docs/${file} #${index + 1}`, config]);
    });
  }
  // Spec 08 KP-5 and 02 GW-3.
  configs.push([
    "spec 08 KP-5",
    {
      models: { providers: { relay: { api: "openai-completions", baseUrl: "${ISHIKI_BASE_URL}", models: [{ id: "qwen-plus" }] } } },
      profiles: {
        alice: {
          model: "relay:qwen-plus",
          channels: { "onebot:123456": ["*", "!private:10000"] },
          extends: { workspace: {}, "mcp-client": { enable: false } },
          wakeup: { engine: "standard", standard: { keywords: ["alice"] } },
        },
      },
    },
  ]);
  configs.push([
    "spec 02 GW-3",
    {
      models: {
        providers: { relay: { api: "openai-completions", baseUrl: "${ISHIKI_BASE_URL}", apiKey: "${ISHIKI_API_KEY}", models: [{ id: "gpt-4o-mini", input: ["text", "image"], contextWindow: 128000 }] } },
        groups: { main: { strategy: "failover", models: ["relay:gpt-4o-mini", "backup:qwen-plus"] } },
      },
    },
  ]);
  return configs;
}

/** Whether every leaf of `written` is in `validated` unchanged (defaults may be added, nothing dropped). */
function keeps(validated: unknown, written: unknown, path = "$"): string[] {
  if (typeof written !== "object" || written === null) return Object.is(validated, written) ? [] : [`${path}: ${JSON.stringify(written)} became ${JSON.stringify(validated)}`];
  if (typeof validated !== "object" || validated === null) return [`${path}: ${JSON.stringify(written)} became ${JSON.stringify(validated)}`];
  if (Array.isArray(written) !== Array.isArray(validated)) return [`${path}: array changed shape`];
  const lost = Array.isArray(written) && (validated as unknown[]).length !== written.length ? [`${path}: length changed`] : [];
  return lost.concat(Object.entries(written).flatMap(([key, value]) => keeps((validated as Config)[key], value, `${path}.${key}`)));
}

const third = Schema.object({ prefix: Schema.string().default("note"), limit: Schema.natural().default(3) }).i18n({
  "zh-CN": { $description: "笔记扩展。", prefix: "前缀。", limit: "上限。" },
  "en-US": { $description: "The note extension.", prefix: "Prefix.", limit: "Limit." },
});

/** A third-party extension with its own instance Schema, registered the way any extension is. */
class NoteExtension extends Extension<{ prefix: string; limit: number }> {
  public override readonly Schema = third;
  public constructor(ctx: Context) {
    super(ctx, "note");
  }
  public [Service.invoke](): ExtensionInstance | undefined {
    return undefined;
  }
}

/** The forms `ctx.schema` holds in an app with the note extension, as the console's `schema` data sends them. */
async function appForms(): Promise<{ app: Context; forms: Record<string, Schema> }> {
  const app = new Context();
  app.plugin(NoteExtension);
  await app.start();
  const forms = JSON.parse(JSON.stringify(app.schema._data)) as Record<string, object>;
  return { app, forms: Object.fromEntries(Object.entries(forms).map(([name, json]) => [name, new Schema(json as Schema)])) };
}

/** The console's view of the plugin form with `extends` showing workspace, demo-notes and the note extension. */
function consoleForm(): Schema {
  const extendsForm = Schema.intersect([extendsEntryForm("workspace", undefined), extendsEntryForm("demo-notes", undefined), extendsEntryForm("note", third)]);
  return resolveDynamic(asConsoleSees(IshikiConfig), { [EXTENDS_FORM]: asConsoleSees(extendsForm) });
}

const apps: Context[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map(stopApp));
});

describe("issue 21: the config form", () => {
  it("every field of the form has a zh-CN and an en-US description, extensions' settings included", () => {
    expect(undescribedFields(consoleForm())).toEqual([]);
    // The walk itself finds a field without one.
    expect(undescribedFields(Schema.object({ bare: Schema.string() }))).toEqual(["$.bare"]);
  });

  it("an extension's instance Schema appears under extends once its plugin is loaded, and leaves with it", async () => {
    const { app, forms } = await appForms();
    apps.push(app);
    const form = resolveDynamic(asConsoleSees(ProfileSchema), forms).dict!.extends;
    const note = extensionField(form, "note");
    expect(note).toBeDefined();
    // Not listed reads "not enabled"; `{}` enables it (KP-7) and shows its settings.
    expect(label(shownVariant(note!, undefined)!)).toMatch(/未启用/);
    expect(label(shownVariant(note!, {})!)).toBe("启用并设置");
    expect(shownVariant(note!, true)!.type).toBe("boolean");
    const settings = shownVariant(note!, { config: { prefix: "n" } })!;
    expect(Object.keys(settings.dict!.config.dict!)).toEqual(["prefix", "limit"]);
    expect(label(settings.dict!.config.dict!.prefix)).toBe("前缀。");
    // Its section in the form is titled with the extension Schema's own description.
    expect(label(form.list!.find((part) => part.dict?.note)!, "en-US")).toBe("The note extension.");
    app.registry.delete(NoteExtension);
    expect(app.schema.get(EXTENDS_FORM).list).toEqual([]);
  });

  it("each union's variants validate, and the variant the console picks is the one it keeps showing", () => {
    const found = unions(consoleForm());
    const paths = found.map(([path]) => path);
    for (const section of ["context", "wakeup", "toolcall"]) expect(paths).toContain(`$.profiles[]|0.${section}`);
    expect(paths).toContain("$.models.providers[]");
    for (const [path, union] of found) {
      for (const variant of union.list!.filter((item) => !item.meta.hidden && item.meta.default !== undefined)) {
        const value = structuredClone(variant.meta.default);
        expect(() => union(structuredClone(value)), `${path}: ${JSON.stringify(value)}`).not.toThrow();
        expect(shownVariant(union, value), `${path}: picking ${JSON.stringify(value)}`).toBe(variant);
      }
    }
  });

  it("providers are a union on api with that api's fields; apiKey is a secret", () => {
    const providers = consoleForm().dict!.models.dict!.providers.inner!;
    const variants = providers.list!.filter((variant) => !variant.meta.hidden);
    expect(variants.map((variant) => variant.dict!.api.value ?? "other")).toEqual(["openai-completions", "openai-responses", "anthropic-messages", "google-generative-ai", "other"]);
    for (const variant of variants) {
      expect(Object.keys(variant.dict!)).toEqual(["api", "baseUrl", "apiKey", "headers", "settings", "timeouts", "models"]);
      expect(variant.dict!.apiKey.meta.role).toBe("secret");
    }
    // Each place has its own description (a Schema shared by two parents would show the last one in both).
    expect(label(variants[0].dict!.timeouts)).toMatch(/此提供方/);
    const entry = variants[0].dict!.models.inner!;
    expect(label(entry.dict!.timeouts)).toMatch(/单次模型调用/);
    expect(Object.keys(entry.dict!)).toEqual(["id", "type", "name", "input", "toolCall", "reasoning", "thinking", "contextWindow", "maxTokens", "dimensions", "timeouts", "prices"]);
    // A custom api (defineApi, GW-8) gets the last variant, with its name in a text field.
    expect(shownVariant(providers, { api: "demo", models: [{ id: "scripted" }] })).toBe(variants[4]);
    expect(shownVariant(providers, { api: "anthropic-messages", apiKey: "${KEY}" })).toBe(variants[2]);
  });

  it("engine sections are unions on the engine name; the wakeup keywords of koishi.yml are a field", () => {
    const profile = consoleForm().dict!.profiles.inner!.list![0];
    const names = (section: string) => profile.dict![section].list!.map((variant) => variant.dict!.engine.value ?? "other");
    expect(names("context")).toEqual(["standard", "v3", "narrative", "other"]);
    expect(names("wakeup")).toEqual(["standard", "v3", "judge", "other"]);
    expect(names("toolcall")).toEqual(["native", "hermes", "morph-xml", "qwen3coder", "yaml-xml", "v3", "narrative", "other"]);
    const wakeup = { engine: "standard", standard: { keywords: ["ishiki"] } };
    const shown = shownVariant(profile.dict!.wakeup, wakeup)!;
    expect(label(shown.dict!.standard.dict!.keywords)).toMatch(/关键词/);
    expect((ProfileSchema({ ...BASE_PROFILE, wakeup } as never) as { wakeup: { standard: { keywords: string[] } } }).wakeup.standard.keywords).toEqual(["ishiki"]);
    expect(shownVariant(profile.dict!.wakeup, { engine: "judge", judge: { interests: ["astronomy"] } })!.dict!.engine.value).toBe("judge");
    // A variant another plugin registered keeps its block as written.
    const custom = { engine: "briefing", briefing: { filename: "brief.md" } };
    expect(shownVariant(profile.dict!.context, custom)!.dict!.engine.type).toBe("string");
    expect((ProfileSchema({ ...BASE_PROFILE, context: custom } as never) as { context: unknown }).context).toEqual(custom);
  });

  it("the form's engine defaults are the engines' own (EN-5)", () => {
    const profile = ProfileSchema.dict!;
    const cases: Array<[string, string, ValidatingEngine]> = [
      ["context", "standard", StandardContextEngine.prototype],
      ["context", "v3", V3ContextEngine.prototype],
      ["context", "narrative", NarrativeContextEngine.prototype],
      ["wakeup", "standard", StandardWakeupEngine.prototype],
      ["wakeup", "v3", V3WakeupEngine.prototype],
      ["wakeup", "judge", JudgeWakeupEngine.prototype],
      ["toolcall", "narrative", NarrativeToolcallEngine.prototype],
    ];
    for (const [family, name, engine] of cases) {
      const section = profile[family]({ engine: name, [name]: {} }) as Record<string, unknown>;
      expect(section[name], `${family}.${name}`).toEqual(engine[validateBlock]({}).value);
    }
  });

  it.each(realConfigs())("%s passes the form and round-trips through koishi.yml unchanged", (_, config) => {
    const form = consoleForm();
    // The console's check before it saves, then what the loader writes and reads back.
    expect(() => form(structuredClone(config))).not.toThrow();
    const written = parse(stringify(config)) as Config;
    expect(written).toEqual(config);
    // The plugin gets what was written, with defaults added and nothing dropped or changed; once more is the same.
    const validated = IshikiConfig(structuredClone(written) as never);
    expect(keeps(validated, written)).toEqual([]);
    expect(IshikiConfig(structuredClone(validated))).toEqual(validated);
    // Every profile, provider and group is shown by its form, not kept aside as something the form cannot read.
    const profiles = form.dict!.profiles.inner!;
    for (const [id, profile] of Object.entries((config.profiles ?? {}) as Config)) expect(shownVariant(profiles, profile), `profile ${id}`).toBe(profiles.list![0]);
    const models = (config.models ?? {}) as { providers?: Config; groups?: Config };
    const providers = form.dict!.models.dict!.providers.inner!;
    for (const [id, provider] of Object.entries(models.providers ?? {})) expect(shownVariant(providers, provider), `provider ${id}`).toBeDefined();
    const groups = form.dict!.models.dict!.groups.inner!;
    for (const [name, group] of Object.entries(models.groups ?? {})) expect(shownVariant(groups, group), `group ${name}`).toBe(groups.list![0]);
  });

  it("the demo's profile is shown with its wakeup keywords, extensions and features", () => {
    const [, demo] = realConfigs()[0];
    const profile = (demo.profiles as Config).demo as Config;
    const form = consoleForm().dict!.profiles.inner!.list![0];
    expect(shownVariant(form.dict!.wakeup, profile.wakeup)!.dict!.engine.value).toBe("standard");
    const extendsForm = form.dict!.extends;
    expect(() => extendsForm(profile.extends)).not.toThrow();
    expect(extendsForm.list!.flatMap((part) => Object.keys(part.dict!))).toEqual(expect.arrayContaining(Object.keys(profile.extends as Config)));
  });

  it("invalid input is rejected with a message naming the field", () => {
    const profile = ProfileSchema;
    expect(() => profile({ channels: BASE_PROFILE.channels } as never)).toThrow(/^\$\.model missing required value$/);
    expect(() => profile({ ...BASE_PROFILE, toolsearch: { maxResults: 50 } } as never)).toThrow(/^\$\.toolsearch\.maxResults expected number <= 20/);
    expect(() => profile({ ...BASE_PROFILE, failover: { attempts: 0 } } as never)).toThrow(/^\$\.failover\.attempts expected number >= 1/);
    expect(() => IshikiConfig({ codemodeWorkers: 0 } as never)).toThrow(/^\$\.codemodeWorkers expected number >= 1/);
    const providers = consoleForm().dict!.models.dict!.providers.inner!;
    const completions = shownVariant(providers, { api: "openai-completions" })!;
    expect(() => completions({ api: "openai-completions" })).toThrow(/^\$\.baseUrl missing required value$/);
    const responses = shownVariant(providers, { api: "openai-responses" })!;
    expect(() => responses({ api: "openai-responses" })).toThrow(/^\$\.apiKey missing required value$/);
    // The plugin still starts with a broken profile or provider (KP-8, KP-38): it is reported and skipped by name.
    expect(() => IshikiConfig({ profiles: { bad: { mode: 42 } }, models: { providers: { broken: { api: 7 } } } } as never)).not.toThrow();
  });
});
