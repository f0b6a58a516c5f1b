import type { Context } from "koishi";

/**
 * Stops a test app with its bots first. `app.stop()` resets the satori service before a bot plugged in directly
 * (`app.plugin(MockBot, ...)`) hears its own dispose, and @satorijs/core's `Bot.dispose` then reads `ctx.bots` of
 * a service that is gone and logs a TypeError. Disposing each bot's scope while the service still stands avoids it.
 * A test that stopped its app itself has no `bots` left to dispose.
 */
export async function stopApp(app: Context): Promise<void> {
  for (const bot of [...(app.bots ?? [])]) bot.ctx.scope.dispose();
  await app.stop();
}
