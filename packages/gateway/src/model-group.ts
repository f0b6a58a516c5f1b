import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { GroupStrategy } from "./config.js";
import type { ModelMetadata } from "./model-entry.js";

export type BreakerState = "closed" | "open" | "half-open";

export interface BreakerStatus {
  state: BreakerState;
  failures: number;
}

/** One model offered for an attempt; report its outcome so the group's breaker can track it (GW-16). */
export interface Candidate {
  /** The reference as declared, e.g. `relay:gpt-4o-mini:high`. */
  id: string;
  model: LanguageModelV4;
  metadata: ModelMetadata;
  success(): void;
  failure(): void;
}

/** Anything that offers candidates per call; a group, or a single model retried (GW-20). */
export interface CandidateSource {
  /** Used in log lines. */
  readonly name: string;
  candidates(): Candidate[];
}

/** A built group (GW-14..GW-17). */
export interface ModelGroup extends CandidateSource {
  readonly strategy: GroupStrategy;
  /** References in declaration order. */
  readonly members: readonly string[];
  /**
   * Order for one call: declared (`failover`), rotated one further per call (`round-robin`) or shuffled
   * (`random`); open breakers are skipped unless all are open.
   */
  candidates(): Candidate[];
  /** Breaker state per distinct reference. */
  status(): Record<string, BreakerStatus>;
  /** Closes every breaker. */
  reset(): void;
}
