import type { ResourcePayload } from "./payload.js";
import type { ResourceStore } from "./resource-store.js";
import type { SchemeHandler } from "./scheme-handler.js";

export interface ResolveOptions {
  signal?: AbortSignal;
  /**
   * A hint for FileScheme handlers: keep only what the model's first page needs; the payload's `source` then
   * says where the selection really ends. Direct `read` calls set it; programs never do (RS-34).
   */
  firstPage?: boolean;
}

/**
 * One runtime's resource URLs (RS-1, RS-2): `asset`, `artifact` and `local` are built in and reserved, other
 * schemes are attached by extensions. A URL resolves only in the center that produced it.
 */
export interface ResourceCenter {
  readonly runtimeId: string;
  readonly store: ResourceStore;
  /** Registers a scheme; returns an idempotent disposer. Throws for reserved or already registered schemes. */
  attach(handler: SchemeHandler): () => void;
  /** `asset`, `artifact`, `local`, then attached schemes in attach order. */
  listSchemes(): string[];
  /** Routes by scheme and passes the URL verbatim; failures are `ResourceError`s. */
  resolve(url: string, options?: ResolveOptions): Promise<ResourcePayload>;
  /** The host path of a host-file-backed URL (`local`, stored assets and artifacts); undefined otherwise. */
  locate(url: string): Promise<string | undefined>;
}
