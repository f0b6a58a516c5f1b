// What the Koishi console does with a plugin's config Schema (issue 21), for the form tests of the kernel and of
// the extension packages. Read from @koishijs/plugin-console 5.30.11 and @koishijs/plugin-config 2.8.6: the
// console receives the Schema as JSON and revives it with `new Schema(json)`; a `Schema.dynamic(name)` node is
// replaced by what `ctx.schema` holds under `name`; a union shows the first visible variant the value fits once
// every field is made optional (constants stay as they are); before saving, the whole config must pass the
// revived Schema, and the config sent back is the edited value itself, which the loader writes to koishi.yml.
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { Schema, type Context } from "koishi";
import { parse } from "yaml";

type Descriptions = Record<string, string>;

/** The Schema as the console sees it: serialised to JSON and revived. */
export function asConsoleSees<S extends Schema>(schema: S): Schema {
  return new Schema(JSON.parse(JSON.stringify(schema)));
}

/** Replaces every `Schema.dynamic(name)` by `forms[name]`, as the console's dynamic component does. */
export function resolveDynamic(schema: Schema, forms: Record<string, Schema | undefined>): Schema {
  if (schema.meta.role === "dynamic") {
    const name = (schema.meta.extra as { name: string }).name;
    const form = forms[name];
    if (form === undefined) throw new Error(`no form registered as ${name}`);
    return resolveDynamic(new Schema({ ...form, meta: { ...schema.meta, ...form.meta, role: form.meta.role, extra: form.meta.extra } }), forms);
  }
  const copy = new Schema({ ...schema });
  if (schema.dict) copy.dict = Object.fromEntries(Object.entries(schema.dict).map(([key, inner]) => [key, resolveDynamic(inner, forms)]));
  if (schema.list) copy.list = schema.list.map((inner) => resolveDynamic(inner, forms));
  if (schema.inner) copy.inner = resolveDynamic(schema.inner, forms);
  return copy;
}

/** The console's loosening before it matches a union variant: nothing is required, constants stay. */
function loosened(schema: Schema): Schema {
  if (schema.type === "const") return schema;
  const copy = new Schema({ ...schema }).required(false);
  if (schema.dict) copy.dict = Object.fromEntries(Object.entries(schema.dict).map(([key, inner]) => [key, loosened(inner)]));
  if (schema.list) copy.list = schema.list.map(loosened);
  if (schema.inner) copy.inner = loosened(schema.inner);
  return copy;
}

/** The variant of `union` the console shows for `value`, or `undefined` when no visible variant fits. */
export function shownVariant(union: Schema, value: unknown): Schema | undefined {
  return union.list!.find((variant) => {
    if (variant.meta.hidden) return false;
    try {
      loosened(variant)(structuredClone(value));
      return true;
    } catch {
      return false;
    }
  });
}

/** The console's label of a variant or field in `locale`. */
export function label(schema: Schema, locale = "zh-CN"): string | undefined {
  return (schema.meta.description as Descriptions | undefined)?.[locale];
}

/**
 * Paths of the form's fields without both a `zh-CN` and an `en-US` description: every property of an object
 * and every visible variant of a union of objects (its label in the console's select). `extends` style
 * intersections are walked through.
 */
export function undescribedFields(schema: Schema, path = "$"): string[] {
  const missing: string[] = [];
  const described = (node: Schema) => {
    const text = node.meta.description as Descriptions | string | undefined;
    return typeof text === "object" && !!text["zh-CN"] && !!text["en-US"];
  };
  if (schema.type === "object") {
    for (const [key, inner] of Object.entries(schema.dict!)) {
      if (!described(inner)) missing.push(`${path}.${key}`);
      missing.push(...undescribedFields(inner, `${path}.${key}`));
    }
  } else if (schema.type === "union") {
    const visible = schema.list!.filter((variant) => !variant.meta.hidden);
    visible.forEach((variant, index) => {
      const labelled = variant.type === "const" || visible.length === 1 || described(variant);
      if (!labelled) missing.push(`${path}|${index}`);
      missing.push(...undescribedFields(variant, `${path}|${index}`));
    });
  } else if (schema.type === "intersect") {
    for (const inner of schema.list!) missing.push(...undescribedFields(inner, path));
  } else if (schema.inner) {
    missing.push(...undescribedFields(schema.inner, `${path}[]`));
  }
  return missing;
}

/** Every union node of a Schema with its path, for "each variant validates" checks. */
export function unions(schema: Schema, path = "$"): Array<[string, Schema]> {
  const found: Array<[string, Schema]> = schema.type === "union" ? [[path, schema]] : [];
  if (schema.dict) for (const [key, inner] of Object.entries(schema.dict)) found.push(...unions(inner, `${path}.${key}`));
  if (schema.list) schema.list.forEach((inner, index) => found.push(...unions(inner, `${path}|${index}`)));
  if (schema.inner) found.push(...unions(schema.inner, `${path}[]`));
  return found;
}

/** The `extends` form an app's `ctx.schema` holds, as the console's `schema` data sends it (JSON, revived). */
export function registeredExtendsForm(app: Context, name = "ishiki.extends"): Schema {
  return asConsoleSees(app.schema.get(name));
}

/** The field of extension `name` in an `extends` form (an intersection with one object per extension). */
export function extensionField(form: Schema, name: string): Schema | undefined {
  return form.list?.map((part) => part.dict?.[name]).find((field) => field !== undefined);
}

/** Every `extends.<name>` entry of the koishi.yml samples in a Markdown file (docs/*.md). */
export function documentedEntries(markdownPath: string, name: string): unknown[] {
  const text = readFileSync(markdownPath, "utf8");
  const entries: unknown[] = [];
  for (const [, block] of text.matchAll(/```yaml\n([\s\S]*?)```/g)) {
    const sample = parse(block) as { plugins?: Record<string, { profiles?: Record<string, { extends?: Record<string, unknown> }> } | null> } | null;
    for (const [key, plugin] of Object.entries(sample?.plugins ?? {})) {
      if (!/^ishiki(:|$)/.test(key)) continue;
      for (const profile of Object.values(plugin?.profiles ?? {})) if (profile?.extends && name in profile.extends) entries.push(profile.extends[name]);
    }
  }
  return entries;
}

/**
 * Issue 21's check of one extension package: its instance settings are registered under the profile form's
 * `extends`, every field described in zh-CN and en-US, its section titled with its name, and every entry its docs
 * page shows fits the form.
 */
export function expectExtensionForm(app: Context, name: string, settings: Schema, docsPage: string): void {
  const form = registeredExtendsForm(app);
  expect(undescribedFields(form)).toEqual([]);
  const field = extensionField(form, name);
  expect(field).toBeDefined();
  const shown = shownVariant(field!, {})!;
  expect(Object.keys(shown.dict!.config.dict!)).toEqual(Object.keys(settings.dict!));
  expect(label(form.list!.find((part) => part.dict?.[name])!)).toMatch(new RegExp(name));
  const documented = documentedEntries(docsPage, name);
  expect(documented.length).toBeGreaterThan(0);
  for (const entry of documented) {
    expect(() => field!(structuredClone(entry)), JSON.stringify(entry)).not.toThrow();
    const variant = shownVariant(field!, entry);
    expect(variant, JSON.stringify(entry)).toBeDefined();
    if (typeof entry === "object" && entry !== null) expect(() => variant!.dict!.config((entry as { config?: unknown }).config)).not.toThrow();
  }
}
