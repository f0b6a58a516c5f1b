import type { Context, Session } from "koishi";
import { formatStamp, textContent } from "../../engines/shared/index.js";
import type { PreviewMessage, WakeupPreview } from "../../runtime/index.js";
import { PreviewSettingsError } from "../channel-preview.js";
import type { IshikiService } from "../service.js";
import { channelRuntime } from "./channel-runtime.js";
import { refusal } from "./authority.js";
import type { CommandSettings } from "./command-kernel.js";

const SNIPPET_CHARS = 30;

/**
 * `ishiki.preview <settings>` (issue 22): replays this channel's recorded messages of the last days through a
 * wakeup engine with the settings given as one JSON argument, and answers how often and on which messages the
 * bot would have woken, beside what happened. No model is called unless `--model-calls` grants some.
 */
export function registerPreview(ctx: Context, ishiki: IshikiService, options: CommandSettings): () => void {
  const command = ctx
    .command("ishiki.preview <settings:text>", { authority: options.authority })
    .option("days", "-d <days:posint>", { fallback: 7 })
    .option("modelCalls", "-m <calls:natural>", { fallback: 0 })
    .option("limit", "-l <limit:posint>", { fallback: 10 })
    .action(async ({ session, options: flags }, text) => {
      if (session === undefined) return;
      const refused = refusal(session, options);
      if (refused !== undefined) return refused;
      let settings: unknown;
      try {
        settings = JSON.parse(text ?? "");
      } catch (error) {
        return session.text(".bad-json", [error instanceof Error ? error.message : String(error)]);
      }
      const found = await channelRuntime(ishiki, session);
      if (found === undefined) return session.text("commands.ishiki.messages.unclaimed");
      const days = flags?.days ?? 7;
      let preview: WakeupPreview;
      try {
        preview = await ishiki.previewWakeup(found.runtime.profileId, found.runtime.domain, { settings, channel: found.channel, days, modelCalls: flags?.modelCalls ?? 0 });
      } catch (error) {
        if (!(error instanceof PreviewSettingsError)) throw error;
        if (error.reason === "no-engine") return session.text(".no-engine", [error.message]);
        return session.text(error.reason === "invalid" ? ".invalid" : ".bad-json", [error.message]);
      }
      return summarise(session, preview, days, flags?.limit ?? 10);
    });
  return () => command.dispose();
}

function summarise(session: Session, preview: WakeupPreview, days: number, limit: number): string {
  const { messages } = preview;
  if (messages.length === 0) return session.text(".empty", [days]);
  const differ = messages.filter((message) => message.wouldWake !== message.woke);
  const lines = [
    session.text(".summary", {
      days,
      messages: messages.length,
      engine: preview.engine,
      would: messages.filter((message) => message.wouldWake).length,
      woke: messages.filter((message) => message.woke).length,
      differ: differ.length,
      calls: preview.modelCallsUsed > 0 ? session.text(".calls", [preview.modelCallsUsed]) : "",
    }),
  ];
  for (const message of differ.slice(0, limit)) lines.push(session.text(message.wouldWake ? ".would-only" : ".woke-only", line(message)));
  if (differ.length > limit) lines.push(session.text(".more", [differ.length - limit]));
  return lines.join("\n");
}

function line(message: PreviewMessage): Record<string, string> {
  const text = textContent(message.content).replace(/\s+/g, " ").trim();
  // The decision that settled the message: the last one reported for it.
  const decision = message.decisions.at(-1);
  return {
    id: message.messageId,
    time: formatStamp(message.at),
    author: message.author,
    text: text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS - 1)}…` : text,
    reason: decision === undefined ? "" : ` [${decision.rule}${decision.detail === undefined ? "" : `: ${decision.detail}`}]`,
  };
}
