import type { Context, Session } from "koishi";
import { createEntry } from "@yesimagent/core";
import { domainOf, route } from "../ingestion.js";
import type { CommandKernel, CommandSettings } from "./command-kernel.js";
import { refusal } from "./authority.js";
import { defineTexts, textOf } from "./format.js";

const NAME = "ishiki.reset";

const zhCN = {
  commands: {
    [NAME]: {
      description: "在当前频道开始新的上下文：之前的记录保留在事实流中，但不再交给模型",
      messages: {
        unclaimed: "当前频道不属于任何运行中的 profile，没有可重置的上下文。",
        done: "已开始新的上下文（{0}）：之前的消息仍保存在记录里，但模型从这里开始不再看到它们。",
        cross: "已开始新的上下文（{0}）：这个 profile 是 cross 模式，重置对它认领的所有频道生效。",
        failed: "重置失败：{0}",
      },
    },
  },
};

const enUS = {
  commands: {
    [NAME]: {
      description: "Start a new context in this channel: earlier history stays in the fact stream but is no longer given to the model",
      messages: {
        unclaimed: "This channel belongs to no active profile; there is no context to reset.",
        done: "New context started ({0}): earlier messages stay on record, but the model no longer sees them from here on.",
        cross: "New context started ({0}): this profile runs in cross mode, so the reset applies to every channel it claims.",
        failed: "Reset failed: {0}",
      },
    },
  },
};

/**
 * `ishiki.reset` (issue 22): appends an `ishiki.reset` fact to the runtime of the current channel (creating the
 * runtime if needed). History is never deleted; the runtime hands the context engine only what follows the fact.
 */
export function registerResetCommand(ctx: Context, kernel: CommandKernel, settings: CommandSettings): () => void {
  const texts = defineTexts(ctx, { "zh-CN": zhCN, "en-US": enUS });
  const command = ctx.command(NAME, { authority: settings.authority }).action(({ session }) => refusal(session!, settings) ?? reset(session!, kernel));
  return () => {
    command.dispose();
    texts();
  };
}

async function reset(session: Session, kernel: CommandKernel): Promise<string> {
  const text = textOf(session, NAME);
  const activation = session.channelId === undefined ? undefined : route(kernel.profiles(), session.platform, session.selfId, session.channelId);
  if (activation === undefined) return text("unclaimed");
  try {
    const runtime = await activation.runtime(domainOf(activation, session));
    await runtime.agent.storage.append(createEntry("ishiki.reset", { by: `${session.platform}:${session.userId}` }));
    return text(activation.profile.mode === "cross" ? "cross" : "done", [runtime.id]);
  } catch (error) {
    return text("failed", [error instanceof Error ? error.message : String(error)]);
  }
}
