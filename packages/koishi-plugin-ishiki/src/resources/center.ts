import { realpathSync } from "node:fs";
import { sep } from "node:path";
import { ArtifactScheme } from "./artifact-scheme.js";
import { AssetScheme } from "./asset-scheme.js";
import type { AssetFetchLimits } from "./asset-fetch.js";
import type { ByteCache } from "./byte-cache.js";
import { FileScheme } from "./file-scheme.js";
import { LocalScheme } from "./local-scheme.js";
import type { ResourceCenter } from "./resource-center.js";
import { ResourceError, wrapHandlerError } from "./resource-error.js";
import type { SchemeHandler } from "./scheme-handler.js";
import { createResourceStore } from "./store.js";
import { quote } from "./quote.js";
import { schemeOf } from "./url-grammar.js";

const RESERVED = ["asset", "artifact", "local"];

export interface ResourceCenterOptions {
  runtimeId: string;
  /** The runtime home: root of `local://` and of the store. */
  home: string;
  cache?: ByteCache;
  fetchLimits?: Partial<AssetFetchLimits>;
}

/** A center plus the undo its runtime runs at stop: cached bytes are dropped. */
export interface OwnedResourceCenter extends ResourceCenter {
  dispose(): void;
}

/**
 * A handler's error with the runtime home written as `local:/` (`<home>/a.txt` reads `local://a.txt`): no host
 * path reaches the model (docs/resources.md), whatever an extension's handler put in its message.
 */
function withoutHome(error: ResourceError, home: string): ResourceError {
  const homes = [home];
  try {
    // Only on the error path: the home's real path, as containPath reports it.
    homes.push(realpathSync(home));
  } catch {
    // A home that does not exist has no real path to hide.
  }
  if (!homes.some((path) => error.message.includes(path))) return error;
  let message = error.message;
  for (const path of homes.filter((path) => path.length > 1).sort((a, b) => b.length - a.length)) message = message.replaceAll(`${path}${sep}`, "local://").replaceAll(path, "local://");
  return new ResourceError(error.code, message, { cause: error.cause ?? error });
}

/** Creates one runtime's center with the three core schemes registered (RS-1..RS-4). */
export function createResourceCenter(options: ResourceCenterOptions): OwnedResourceCenter {
  const store = createResourceStore(options);
  const handlers = new Map<string, SchemeHandler>();
  for (const handler of [new AssetScheme(store), new ArtifactScheme(store), new LocalScheme(options.home)]) {
    handlers.set(handler.scheme, handler);
  }

  const route = (url: string): [string, SchemeHandler] => {
    const scheme = schemeOf(url);
    if (scheme === undefined) {
      throw new ResourceError("invalid_resource_uri", `${quote(url)}: not a resource URL; expected <scheme>://…`);
    }
    const handler = handlers.get(scheme);
    if (!handler) {
      const available = [...handlers.keys()].map((s) => `${s}://`).join(", ");
      throw new ResourceError("resource_unavailable", `unknown scheme "${quote(scheme)}"; available: ${available}`);
    }
    return [scheme, handler];
  };

  return {
    runtimeId: options.runtimeId,
    store,
    attach(handler) {
      const scheme = handler.scheme;
      if (typeof scheme !== "string" || !/^[a-z][a-z0-9+.-]*$/.test(scheme)) {
        throw new Error(`scheme "${String(scheme)}" is invalid; use lower-case [a-z][a-z0-9+.-]*`);
      }
      if (RESERVED.includes(scheme)) throw new Error(`scheme "${scheme}" is reserved`);
      if (handlers.has(scheme)) throw new Error(`scheme "${scheme}" is already registered`);
      handlers.set(scheme, handler);
      return () => {
        if (handlers.get(scheme) === handler) handlers.delete(scheme);
      };
    },
    listSchemes() {
      return [...handlers.keys()];
    },
    async resolve(url, resolveOptions) {
      const [scheme, handler] = route(url);
      try {
        return await handler.resolve(url, resolveOptions);
      } catch (error) {
        if (resolveOptions?.signal?.aborted && error === resolveOptions.signal.reason) throw error;
        throw withoutHome(wrapHandlerError(scheme, error), options.home);
      }
    },
    async locate(url) {
      const [scheme, handler] = route(url);
      if (!(handler instanceof FileScheme)) return undefined;
      try {
        return await handler.locate(url);
      } catch (error) {
        throw wrapHandlerError(scheme, error);
      }
    },
    dispose() {
      store.dispose();
    },
  };
}
