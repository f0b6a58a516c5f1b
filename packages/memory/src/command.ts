import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Context, Session } from "koishi";
import { enUS, zhCN } from "./command-locales.js";
import type { MemoryPluginConfig } from "./settings.js";
import type { MemoryRecord } from "./store/memory-record.js";
import type { MemoryQuery, MemoryStore } from "./store/memory-store.js";
import { subjectId } from "./tools/memory-view.js";

interface Options {
  user?: string;
  channel?: boolean;
  profile?: string;
  all?: boolean;
}

const TEXT = "commands.ishiki.memory.messages";

function line(record: MemoryRecord): string {
  const about = record.scope === "profile" ? "profile" : `${record.scope} ${subjectId(record.subject)}${record.label ? ` ${record.label}` : ""}`;
  return `#${record.id} [${record.profile} · ${about}] ${record.text}`;
}

/** A memory as exported: the stored row without its vector. */
const exported = ({ embedding: _embedding, ...record }: MemoryRecord) => ({ ...record, createdAt: record.createdAt.toISOString(), updatedAt: record.updatedAt.toISOString() });

/**
 * `ishiki.memory` (issue 24): `list`, `show <id>`, `forget <id>|--all` and `export`. Anyone manages what the bot
 * remembers about them (their person memories in every profile); from `adminAuthority` on a user also sees
 * other people's (`-u`), the current channel's (`-c`) and exports a whole profile to a JSON file. Returns the
 * disposer of the commands.
 */
export function registerMemoryCommand(ctx: Context, store: MemoryStore, config: MemoryPluginConfig, dataPath: () => string): () => void {
  ctx.i18n.define("zh-CN", zhCN);
  ctx.i18n.define("en-US", enUS);
  const own = (session: Session) => `${session.platform}:${session.userId}`;
  const isAdmin = (session: Session<"authority">) => (session.user?.authority ?? 0) >= config.adminAuthority;

  /** What the caller asked for; undefined when it needs authority they lack. */
  const target = (session: Session<"authority">, options: Options): MemoryQuery | undefined => {
    const profile = options.profile;
    if (options.user === undefined && !options.channel) return { scope: "person", subject: own(session), profile };
    if (!isAdmin(session)) return undefined;
    if (options.channel) return { scope: "channel", subject: `${session.platform}:${session.channelId}`, profile };
    return { scope: "person", subject: `${session.platform}:${options.user}`, profile };
  };
  const mayTouch = (session: Session<"authority">, record: MemoryRecord) => isAdmin(session) || (record.scope === "person" && record.subject === own(session));

  const root = ctx
    .command("ishiki.memory")
    .option("user", "-u <user:string>")
    .option("channel", "-c")
    .option("profile", "-p <profile:string>")
    .userFields(["authority"]);

  const list = async (session: Session<"authority">, options: Options) => {
    const query = target(session, options);
    if (!query) return session.text(`${TEXT}.admin-only`);
    const records = await store.query(query);
    if (records.length === 0) return session.text(`${TEXT}.empty`);
    return [session.text(`${TEXT}.header`, [records.length]), ...records.map(line)].join("\n");
  };
  root.action(({ session, options }) => list(session!, options as Options));
  root.subcommand(".list").option("user", "-u <user:string>").option("channel", "-c").option("profile", "-p <profile:string>").userFields(["authority"]).action(({ session, options }) => list(session!, options as Options));

  root.subcommand(".show <id:natural>").userFields(["authority"]).action(async ({ session }, id) => {
    const record = id === undefined ? undefined : await store.get(id);
    if (!record || !mayTouch(session!, record)) return session!.text(`${TEXT}.not-found`, [id]);
    return `${line(record)}\n${record.source ? `source ${record.source}; ` : ""}saved ${record.createdAt.toISOString()}, updated ${record.updatedAt.toISOString()}`;
  });

  root.subcommand(".forget [id:natural]").option("all", "--all").option("profile", "-p <profile:string>").userFields(["authority"]).action(async ({ session, options }, id) => {
    if (options?.all) {
      const records = await store.query({ scope: "person", subject: own(session!), profile: options.profile });
      await store.forget(records);
      return session!.text(`${TEXT}.forgotten`, [records.length]);
    }
    if (id === undefined) return session!.text(`${TEXT}.need-id`);
    const record = await store.get(id);
    if (!record || !mayTouch(session!, record)) return session!.text(`${TEXT}.not-found`, [id]);
    await store.forget([record]);
    return session!.text(`${TEXT}.forgotten`, [1]);
  });

  root.subcommand(".export").option("profile", "-p <profile:string>").userFields(["authority"]).action(async ({ session, options }) => {
    if (options?.profile === undefined) {
      return JSON.stringify((await store.query({ scope: "person", subject: own(session!) })).map(exported), null, 2);
    }
    if (!isAdmin(session!)) return session!.text(`${TEXT}.admin-only`);
    const records = await store.query({ profile: options.profile });
    const dir = join(dataPath(), "memory-exports");
    await mkdir(dir, { recursive: true });
    const file = join(dir, `${options.profile}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    await writeFile(file, `${JSON.stringify({ profile: options.profile, exportedAt: new Date().toISOString(), memories: records.map(exported) }, null, 2)}\n`, "utf8");
    return session!.text(`${TEXT}.exported`, [records.length, file]);
  });

  return () => root.dispose();
}
