import { Service } from "koishi";
import type { Context } from "koishi";
import { WakeupEngine } from "koishi-plugin-ishiki";
import type { EngineConfig, ExtensionHost, WakeupEngineInstance, WakeupEngines } from "koishi-plugin-ishiki";

export interface RhythmConfig {
  everySeconds: number;
}

declare module "koishi-plugin-ishiki" {
  interface WakeupEngines {
    rhythm: RhythmConfig;
  }
}

/** Opens a turn every `everySeconds` while the agent is idle, whatever the chat does. */
export class RhythmWakeupEngine extends WakeupEngine<"rhythm"> {
  public constructor(ctx: Context) {
    super(ctx, "rhythm");
  }

  public [Service.invoke](host: ExtensionHost, config: EngineConfig<Pick<WakeupEngines, "rhythm">>): WakeupEngineInstance {
    const everySeconds = config.rhythm?.everySeconds ?? 60;
    return {
      attach(agent) {
        const timer = setInterval(() => {
          // Only when idle: a busy agent would merge the wake into its pending one.
          if (agent.isIdle()) agent.continue();
        }, everySeconds * 1000);
        host.logger.debug("rhythm: every %d s", everySeconds);
        return () => clearInterval(timer);
      },
    };
  }
}

export default RhythmWakeupEngine;
