import type { AgentLogger } from "@yesimagent/core";

type Step = { label: string; run: () => unknown };
type Phase = "agent" | "extensions" | "engines" | "final" | "store";

/** Phases in stop order (spec 08 KP-19); `extensions` and `engines` run last-registered first. */
const PHASES: ReadonlyArray<{ phase: Phase; reverse: boolean }> = [
  { phase: "agent", reverse: false },
  { phase: "extensions", reverse: true },
  { phase: "engines", reverse: true },
  { phase: "final", reverse: false },
  { phase: "store", reverse: false },
];

/**
 * A runtime's undo list: the agent, then extensions in reverse `extends` order, then engine disposers, then
 * leftover schemes, pending writes and the store. A failing step is logged as a warning and the rest still run
 * (spec 07 XA-8). Running it twice returns the first run.
 */
export class Teardown {
  private readonly steps: Record<Phase, Step[]> = { agent: [], extensions: [], engines: [], final: [], store: [] };
  private running: Promise<void> | undefined;

  public constructor(private readonly logger: AgentLogger) {}

  public add(phase: Phase, label: string, run: () => unknown): void {
    this.steps[phase].push({ label, run });
  }

  public run(): Promise<void> {
    this.running ??= (async () => {
      for (const { phase, reverse } of PHASES) {
        const steps = reverse ? [...this.steps[phase]].reverse() : this.steps[phase];
        for (const step of steps) await this.attempt(step);
      }
    })();
    return this.running;
  }

  /** Runs one undo, logging instead of throwing. */
  public async attempt(step: Step): Promise<void> {
    try {
      await step.run();
    } catch (error) {
      this.logger.warn(`${step.label}: stop failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
