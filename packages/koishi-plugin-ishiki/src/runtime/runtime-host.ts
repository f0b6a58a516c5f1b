import type { AgentRuntime, ExtensionHost } from "../extension/index.js";
import type { OwnedResourceCenter, ResourceCenter } from "../resources/index.js";

/** A runtime's center as extensions see it: attached schemes are tracked so stop disposes leftovers (XA-10). */
export interface TrackedResources {
  readonly center: ResourceCenter;
  /** Disposes the schemes extensions left attached; returns their names. */
  disposeLeftovers(): string[];
}

export function trackResources(owned: OwnedResourceCenter): TrackedResources {
  const attached = new Map<() => void, string>();
  const center: ResourceCenter = {
    get runtimeId() {
      return owned.runtimeId;
    },
    get store() {
      return owned.store;
    },
    attach(handler) {
      const dispose = owned.attach(handler);
      let disposed = false;
      const undo = (): void => {
        if (disposed) return;
        disposed = true;
        attached.delete(undo);
        dispose();
      };
      attached.set(undo, handler.scheme);
      return undo;
    },
    listSchemes: () => owned.listSchemes(),
    resolve: (url, options) => owned.resolve(url, options),
    locate: (url) => owned.locate(url),
  };
  return {
    center,
    disposeLeftovers() {
      const names = [...attached.values()];
      for (const undo of [...attached.keys()].reverse()) undo();
      return names;
    },
  };
}

type HostFields = Omit<ExtensionHost, "runtime">;

/** The host handed to providers; `runtime` throws until the runtime is constructed (XA-14). */
export function createExtensionHost(fields: HostFields, handle: () => AgentRuntime | undefined): ExtensionHost {
  const host = { ...fields } as ExtensionHost;
  Object.defineProperty(host, "runtime", {
    enumerable: true,
    get() {
      const runtime = handle();
      if (runtime === undefined) throw new Error("runtime handle is not available yet; use attach(handle)");
      return runtime;
    },
  });
  return Object.freeze(host);
}
