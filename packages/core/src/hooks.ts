import type { AgentPlugin } from "./plugin.js";
import type { AgentLogger } from "./logger.js";

type PipeHook = "onAppend" | "transformEntries" | "transformMessages" | "prepareStep" | "beforeToolCall" | "afterToolCall";
type HookArgs<K extends PipeHook> = Parameters<NonNullable<AgentPlugin[K]>>;
type Rest<T extends unknown[]> = T extends [unknown, ...infer R] ? R : never;

/** Plugins in hook order: `enforce: "pre"`, then registration order, then `"post"` (AG-49). */
export function orderPlugins(plugins: readonly AgentPlugin[]): AgentPlugin[] {
  return [
    ...plugins.filter((plugin) => plugin.enforce === "pre"),
    ...plugins.filter((plugin) => plugin.enforce !== "pre" && plugin.enforce !== "post"),
    ...plugins.filter((plugin) => plugin.enforce === "post"),
  ];
}

/** The combined hooks of an ordered plugin list. */
export class AgentHooks {
  constructor(
    readonly plugins: readonly AgentPlugin[],
    private readonly logger: AgentLogger,
  ) {}

  /** Runs a pipe hook: each plugin gets the previous value; `undefined` keeps it. Throws propagate. */
  async pipe<K extends PipeHook>(hook: K, value: HookArgs<K>[0], ...rest: Rest<HookArgs<K>>): Promise<HookArgs<K>[0]> {
    let current = value;
    for (const plugin of this.plugins) {
      const fn = plugin[hook] as ((value: unknown, ...rest: unknown[]) => unknown) | undefined;
      if (!fn) continue;
      const next = await fn.call(plugin, current, ...rest);
      if (next !== undefined) current = next as HookArgs<K>[0];
    }
    return current;
  }

  /** `toModelMessages`: the first plugin returning a value wins. */
  async first<A extends unknown[], R>(select: (plugin: AgentPlugin) => ((...args: A) => unknown) | undefined, ...args: A): Promise<R | undefined> {
    for (const plugin of this.plugins) {
      const fn = select(plugin);
      if (!fn) continue;
      const value = await fn.apply(plugin, args);
      if (value !== undefined) return value as R;
    }
    return undefined;
  }

  /** Observers: every plugin is called in order; throws are logged and ignored. Returns the first defined value. */
  async observe<R>(hook: "onStepFinish" | "onTurnFinish", arg: unknown): Promise<R | undefined> {
    let decision: R | undefined;
    for (const plugin of this.plugins) {
      const fn = plugin[hook] as ((arg: unknown) => unknown) | undefined;
      if (!fn) continue;
      try {
        const value = (await fn.call(plugin, arg)) as R | undefined;
        if (value !== undefined && decision === undefined) decision = value;
      } catch (error) {
        this.logger.warn(`plugin ${plugin.name}: ${hook} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return decision;
  }
}
