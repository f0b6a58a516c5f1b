import type { Context } from "koishi";
import type { ExtensionHost } from "../../extension/index.js";
import { validateBlock, type ValidatedBlock, type ValidatingEngine } from "../block-validation.js";
import type { EngineConfig, WakeupEngines } from "../engine-maps.js";
import { validateWithZod } from "../shared/index.js";
import { WakeupEngine } from "../wakeup-engine.js";
import { wakeupHistory, type ObservingWakeup } from "../history-observer.js";
import type { WakeupEngineInstance } from "../wakeup-engine-instance.js";
import { judgeWakeupBlock } from "./judge-block.js";
import { attachJudge } from "./judge-session.js";
import { JudgeWindows } from "./judge-window.js";

/**
 * The `judge` wakeup engine (spec 06 §3.3): rule hits wake at once, other facts are judged by a model (`model`,
 * else the profile's model through failover, never wrapped by the toolcall engine).
 */
export class JudgeWakeupEngine extends WakeupEngine<"judge"> implements ValidatingEngine {
  public constructor(ctx: Context) {
    super(ctx, "judge");
  }

  public [validateBlock](block: unknown): ValidatedBlock {
    return validateWithZod("wakeup.judge", judgeWakeupBlock, block);
  }

  public [WakeupEngine.invoke](host: ExtensionHost, config: EngineConfig<Pick<WakeupEngines, "judge">>): WakeupEngineInstance {
    const options = judgeWakeupBlock.parse(config.judge ?? {});
    const model = () => (options.model === undefined ? host.profileModel() : host.gateway.profileModel(options.model));
    const session = { options, domain: host.domain, model, logger: host.logger };
    let observed: JudgeWindows | undefined;
    const instance: ObservingWakeup = {
      attach: (agent) => attachJudge(agent, observed === undefined ? session : { ...session, observed }),
      // The runtime observes the history for us: the windows are fed from its read (or checkpoint) and appends.
      [wakeupHistory]: () => {
        const windows = new JudgeWindows(options.historyMessages, host.domain);
        observed = windows;
        return { observe: (entry) => windows.seed(entry), clear: () => windows.clear(), save: () => windows.save(), restore: (saved) => windows.restore(saved) };
      },
    };
    return instance;
  }
}
