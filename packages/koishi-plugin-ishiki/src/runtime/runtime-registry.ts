import type { AgentLogger } from "@yesimagent/core";
import type { RuntimeDomain } from "../extension/index.js";
import { runtimeIdOf } from "./runtime-address.js";
import type { Runtime } from "./runtime-contract.js";

export type RuntimeFactory = (domain: RuntimeDomain) => Promise<Runtime>;

const FAILURE_LOG_INTERVAL_MS = 60_000;

/**
 * The runtimes of one active profile, one per address (spec 08 KP-17, KP-22): created lazily on first use,
 * concurrent callers share one creation, and a failed creation is not cached (the next call retries; its
 * error is logged at most once a minute per address).
 */
export class RuntimeRegistry {
  private readonly runtimes = new Map<string, Promise<Runtime>>();
  /** The settled ones among `runtimes`, for lookups that must not wait (the console). */
  private readonly ready = new Map<string, Runtime>();
  private readonly lastFailure = new Map<string, number>();
  private stopping: Promise<void> | undefined;

  public constructor(
    private readonly profileId: string,
    private readonly create: RuntimeFactory,
    private readonly logger: AgentLogger,
  ) {}

  /** The runtime of `domain`, created on first use; rejects when its creation fails. */
  public get(domain: RuntimeDomain): Promise<Runtime> {
    if (this.stopping) return Promise.reject(new Error(`[${this.profileId}] profile is deactivating`));
    const id = runtimeIdOf(this.profileId, domain);
    let runtime = this.runtimes.get(id);
    if (runtime === undefined) {
      runtime = this.create(domain);
      this.runtimes.set(id, runtime);
      runtime.then(
        (value) => {
          if (this.runtimes.get(id) === runtime) this.ready.set(id, value);
          this.logger.info(`[${id}] runtime created`);
        },
        (error: unknown) => {
          if (this.runtimes.get(id) === runtime) this.runtimes.delete(id);
          this.reportFailure(id, error);
        },
      );
    }
    return runtime;
  }

  /** The runtime `id` without creating or awaiting it: `starting` while its creation is in flight. */
  public peek(id: string): Runtime | "starting" | undefined {
    if (!this.runtimes.has(id)) return undefined;
    return this.ready.get(id) ?? "starting";
  }

  /** Runtimes created or being created, by id. */
  public ids(): string[] {
    return [...this.runtimes.keys()];
  }

  /** Stops one runtime and forgets it, so the next event re-creates it from disk (idle eviction, KP-20). */
  public async evict(id: string): Promise<void> {
    const runtime = this.runtimes.get(id);
    if (runtime === undefined) return;
    this.runtimes.delete(id);
    this.ready.delete(id);
    await runtime.then((value) => value.stop(), () => undefined);
  }

  /** Stops every runtime (deactivation, KP-21); creations in flight are stopped once they finish. */
  public stopAll(): Promise<void> {
    this.stopping ??= (async () => {
      const pending = [...this.runtimes.values()];
      this.runtimes.clear();
      this.ready.clear();
      await Promise.all(pending.map((runtime) => runtime.then((value) => value.stop(), () => undefined)));
    })();
    return this.stopping;
  }

  private reportFailure(id: string, error: unknown): void {
    const now = Date.now();
    const last = this.lastFailure.get(id);
    if (last !== undefined && now - last < FAILURE_LOG_INTERVAL_MS) return;
    this.lastFailure.set(id, now);
    this.logger.error(`[${id}] runtime creation failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
