import { tool } from "ai";
import { ToolError, type Agent, type AgentLogger } from "@yesimagent/core";
import { PendingWake } from "./wake-rule.js";
import { waitInputSchema, waitResultSchema, type WaitInput, type WaitResult } from "./wait-schema.js";

const WAIT_DESCRIPTION = [
  "End your turn and wake up later: after `seconds`, and/or when a new message arrives (`message: true`).",
  "One wait is armed at a time; a new call replaces it. The wake prompt carries your `note`.",
].join(" ");

interface ArmedWait {
  timer?: NodeJS.Timeout;
  message: boolean;
  suffix: string;
  wake?: PendingWake;
}

/**
 * The runtime's single armed wait (spec 06 EN-46 .. EN-48): in memory, fires once, replaced by a new call,
 * ignores wakeup engines, and ends at runtime stop without being restored after a restart.
 */
export class WaitController {
  private agent: Agent | undefined;
  private armed: ArmedWait | undefined;
  private unsubscribe: (() => void) | undefined;

  public constructor(private readonly logger?: AgentLogger) {}

  /** Starts watching `agent`'s stream for the message condition; the disposer disarms and stops watching. */
  public attach(agent: Agent): () => void {
    this.agent = agent;
    this.unsubscribe = agent.channel.subscribe("agent", (event) => {
      const armed = this.armed;
      if (!armed?.message || armed.wake === undefined || event.type !== "message.appended") return;
      if (event.message.role === "custom" && event.message.type === "ishiki.message.created") armed.wake.hit(event.seq);
    });
    return () => {
      if (this.armed) this.logger?.info("armed wait dropped at stop; waits are not restored after a restart");
      this.disarm();
      this.unsubscribe?.();
      this.unsubscribe = undefined;
      this.agent = undefined;
    };
  }

  public arm(input: WaitInput): WaitResult {
    const agent = this.agent;
    if (agent === undefined) throw new ToolError("wait: the runtime is not running");
    if (input.seconds === undefined && input.message !== true) throw new ToolError("wait needs seconds or message: true");
    const replaced = this.disarm();
    const armed: ArmedWait = { message: input.message === true, suffix: input.note ? ` Note: ${input.note}` : "" };
    const result: WaitResult = { ok: true, armed: {}, replaced };
    if (input.seconds !== undefined) {
      const seconds = input.seconds;
      armed.timer = setTimeout(() => this.fire(armed, `Wait ended: timer elapsed after ${seconds} s.`), seconds * 1000);
      armed.timer.unref?.();
      result.armed.seconds = seconds;
      result.armed.firesAt = new Date(Date.now() + seconds * 1000).toISOString();
    }
    if (armed.message) {
      armed.wake = new PendingWake(agent, () => this.fire(armed, "Wait ended: a new message arrived."), this.logger);
      result.armed.message = true;
    }
    this.armed = armed;
    return result;
  }

  /** Whether a wait is armed: stopping the runtime now would drop it (spec 08 KP-20). */
  isArmed(): boolean {
    return this.armed !== undefined;
  }

  /** Disarms the current wait; returns whether there was one. */
  private disarm(): boolean {
    const armed = this.armed;
    if (armed === undefined) return false;
    this.armed = undefined;
    if (armed.timer) clearTimeout(armed.timer);
    armed.wake?.dispose();
    return true;
  }

  private fire(armed: ArmedWait, text: string): void {
    if (this.armed !== armed) return;
    this.disarm();
    this.agent?.continue(text + armed.suffix);
  }
}

/** The `wait` tool over one runtime's controller; direct-only and resident. */
export function createWaitTool(controller: WaitController) {
  return tool({
    description: WAIT_DESCRIPTION,
    inputSchema: waitInputSchema,
    outputSchema: waitResultSchema,
    execute: async (input): Promise<WaitResult> => controller.arm(input),
  });
}
