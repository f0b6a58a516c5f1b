import type { LanguageModelV4 } from "@ai-sdk/provider";
import { CircuitBreaker } from "./breaker.js";
import type { BreakerRecord } from "./breaker.js";
import type { GroupConfig, GroupStrategy } from "./config.js";
import type { ModelMetadata } from "./model-entry.js";
import type { BreakerStatus, Candidate, ModelGroup } from "./model-group.js";

/** A member reference resolved when the group is built (spec 02 GW-14). */
export interface ResolvedMember {
  ref: string;
  model: LanguageModelV4;
  metadata: ModelMetadata;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

class BuiltGroup implements ModelGroup {
  readonly strategy: GroupStrategy;
  readonly members: readonly string[];
  private readonly breakers = new Map<string, CircuitBreaker>();
  private rotation = 0;

  constructor(
    readonly name: string,
    config: GroupConfig,
    private readonly resolved: readonly ResolvedMember[],
    previous: ReadonlyMap<string, BreakerRecord>,
  ) {
    this.strategy = config.strategy ?? "failover";
    this.members = resolved.map((member) => member.ref);
    for (const ref of this.members) {
      if (!this.breakers.has(ref)) this.breakers.set(ref, new CircuitBreaker(config.circuitBreaker, previous.get(ref)));
    }
  }

  candidates(): Candidate[] {
    const order = [...this.resolved];
    if (this.strategy === "round-robin") {
      const start = this.rotation++ % order.length;
      order.push(...order.splice(0, start));
    } else if (this.strategy === "random") {
      shuffle(order);
    }
    const offered = order.filter((member) => this.breakers.get(member.ref)!.state !== "open");
    return (offered.length > 0 ? offered : order).map((member) => {
      const breaker = this.breakers.get(member.ref)!;
      return {
        id: member.ref,
        model: member.model,
        metadata: member.metadata,
        success: () => breaker.success(),
        failure: () => breaker.failure(),
      };
    });
  }

  status(): Record<string, BreakerStatus> {
    return Object.fromEntries([...this.breakers].map(([ref, breaker]) => [ref, breaker.status()]));
  }

  reset(): void {
    for (const breaker of this.breakers.values()) breaker.success();
  }

  /** The counters to carry into a rebuilt group of the same name. */
  records(): ReadonlyMap<string, BreakerRecord> {
    return new Map([...this.breakers].map(([ref, breaker]) => [ref, breaker.record]));
  }
}

export function createModelGroup(
  name: string,
  config: GroupConfig,
  members: readonly ResolvedMember[],
  previous: ReadonlyMap<string, BreakerRecord> = new Map(),
): ModelGroup & { records(): ReadonlyMap<string, BreakerRecord> } {
  return new BuiltGroup(name, config, members, previous);
}
