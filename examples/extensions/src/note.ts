import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { Logger, Schema, Service } from "koishi";
import type { Context } from "koishi";
import { Extension, jsonSchema, tool } from "koishi-plugin-ishiki";
import type { ExtensionHost, ExtensionInstance, ToolSet } from "koishi-plugin-ishiki";

export interface NoteSettings {
  prefix: string;
}

const NoteSettings: Schema<NoteSettings> = Schema.object({
  prefix: Schema.string().default("note"),
}).i18n({
  "zh-CN": { $description: "笔记（note）", prefix: "每条笔记的前缀。" },
  "en-US": { $description: "Notes (note)", prefix: "Prefix of every note." },
});

class NoteExtension extends Extension<NoteSettings> {
  public readonly Schema = NoteSettings;

  public constructor(ctx: Context, config: NoteExtension.Config) {
    super(ctx, "note");
    this.logger.level = config.logLevel;
  }

  public [Service.invoke](host: ExtensionHost, config: NoteSettings): ExtensionInstance {
    return {
      extendInstructions: () => "Use note_write to record durable notes.",
      extendTools: (): ToolSet => ({
        note_write: tool({
          description: "Record a short durable note.",
          inputSchema: jsonSchema<{ text: string }>({
            type: "object",
            properties: { text: { type: "string" } },
            required: ["text"],
          }),
          outputSchema: jsonSchema<{ url: string }>({
            type: "object",
            properties: { url: { type: "string" } },
            required: ["url"],
          }),
          execute: async ({ text }) => {
            await appendFile(join(host.home, "notes.txt"), `${config.prefix}: ${text}\n`, "utf8");
            return { url: "local://notes.txt" };
          },
        }),
      }),
    };
  }
}

namespace NoteExtension {
  export interface Config {
    logLevel: number;
  }

  export const Config: Schema<Config> = Schema.object({
    logLevel: Schema.number().default(Logger.INFO),
  });
}

export default NoteExtension;
