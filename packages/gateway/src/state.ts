import type { ProviderV4 } from "@ai-sdk/provider";
import type { BreakerRecord } from "./breaker.js";
import type { ModelTimeouts } from "./config.js";
import type { GatewayError } from "./errors.js";
import type { ModelEntry } from "./model-entry.js";
import type { ModelGroup } from "./model-group.js";

export interface BuiltProvider {
  id: string;
  api: string;
  sdk: ProviderV4;
  timeouts: ModelTimeouts | undefined;
  /** Undefined when the provider declares no models and so serves any id. */
  entries: Map<string, ModelEntry> | undefined;
}

export type BuiltGroup = ModelGroup & { records(): ReadonlyMap<string, BreakerRecord> };

/** Everything one configuration built; swapped as a whole by `reconfigure` (spec 02 GW-26). */
export interface GatewayState {
  providers: Map<string, BuiltProvider>;
  groups: Map<string, BuiltGroup>;
  /** Left-out entries by config key (`providers.<id>`, `groups.<name>` or a source name). */
  broken: Map<string, GatewayError>;
}
