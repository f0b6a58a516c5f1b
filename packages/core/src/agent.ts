import type { LanguageModel } from "ai";
import { ActiveTurn } from "./active-turn.js";
import type { AgentConfig } from "./agent-config.js";
import type { Agent } from "./agent-contract.js";
import { AgentChannel } from "./channel.js";
import { registerDiagnostics } from "./diagnostics.js";
import { createEntry, isMessageEntry } from "./entry.js";
import { AgentBusyError, AgentRuntimeError } from "./errors.js";
import type { AgentEvent, AgentLifecycleEvent } from "./event.js";
import { FactStream } from "./fact-stream.js";
import { AgentHooks, orderPlugins } from "./hooks.js";
import { silentLogger } from "./logger.js";
import { createMemoryStorage } from "./memory-storage.js";
import { createUserMessage, type AgentMessage } from "./message.js";
import { createStateStore } from "./state.js";
import type { AgentStorage } from "./storage.js";
import type { AgentSendOptions } from "./turn.js";
import type { TurnContext } from "./turn-context.js";
import { TurnEventLog } from "./turn-events.js";
import { runTurn } from "./turn-loop.js";
import { TurnScheduler } from "./scheduler.js";

const DEFAULT_MAX_STEPS = 20;

/** Creates an agent (AG-15): nothing runs until the first `send`, `continue`, `run` or `init`. */
export function createAgent(config: AgentConfig): Agent {
  const id = config.id ?? crypto.randomUUID();
  const logger = config.logger ?? silentLogger;
  const channel = new AgentChannel(logger);
  const baseStorage = config.storage ?? createMemoryStorage();
  const plugins = orderPlugins(config.plugins ?? []);
  const hooks = new AgentHooks(plugins, logger);
  const events = new TurnEventLog();
  const initialState = config.initialState ?? { version: 1 };
  let model: LanguageModel = config.model;

  const emit = async (event: AgentEvent): Promise<void> => {
    events.record(event);
    await channel.emit("agent", event);
  };

  const stream = new FactStream({
    storage: baseStorage,
    ...(config.history === undefined ? {} : { retention: config.history }),
    logger,
    onAppend: (entries) => hooks.pipe("onAppend", entries),
    async notify(stored) {
      for (const { entry, seq } of stored) {
        if (!isMessageEntry(entry)) continue;
        await emit({ type: "message.appended", message: entry.data, entryId: entry.id, seq, ...(entry.turnId === undefined ? {} : { turnId: entry.turnId }) });
      }
    },
  });
  baseStorage.onReport?.((message) => void emit({ type: "agent.error", source: "storage", message }));

  const state = createStateStore(initialState, async (snapshot) => {
    await stream.append([createEntry("state", snapshot)], true);
  });

  const scan = stream.scan();
  const storage: AgentStorage = {
    append: async (...entries) => {
      await stream.append(entries, false);
    },
    read: () => stream.read(),
    clear: () => stream.clear(),
    ...(scan === undefined ? {} : { scan }),
  };

  // Message objects already stored or being stored: the same object is persisted once (AG-14).
  const stored = new WeakSet<AgentMessage>();
  const persistMessages = async (messages: readonly AgentMessage[], turnId?: string): Promise<AgentMessage[]> => {
    const fresh = messages.filter((message, index) => !stored.has(message) && messages.indexOf(message) === index);
    if (fresh.length === 0) return [];
    for (const message of fresh) stored.add(message);
    try {
      await stream.append(fresh.map((message) => createEntry("message", message, turnId === undefined ? {} : { turnId })), true);
    } catch (error) {
      for (const message of fresh) stored.delete(message);
      throw error;
    }
    return fresh;
  };

  let initialized = false;
  // Set once stop() has returned: teardown that runs after it (a runtime's extensions, engines) must not open
  // turns on an agent nobody will stop again. A successful init() starts it again.
  let stopped = false;
  let initializing: Promise<void> | undefined;
  const init = (): Promise<void> => {
    if (initialized) return Promise.resolve();
    initializing ??= (async () => {
      await stream.load();
      state.restore(stream.lastState()?.data ?? initialState);
      const started = [];
      try {
        for (const plugin of plugins) {
          await plugin.init?.(agent);
          started.push(plugin);
        }
      } catch (error) {
        for (const plugin of started.reverse()) {
          await Promise.resolve(plugin.stop?.()).catch((stopError: unknown) => logger.warn(`plugin ${plugin.name}: stop after failed init failed: ${String(stopError)}`));
        }
        throw error;
      }
      initialized = true;
      stopped = false;
      await emit({ type: "agent.init" });
    })().finally(() => {
      initializing = undefined;
    });
    return initializing;
  };

  const unprojectedTypes = new Set<string>();
  const context: TurnContext = {
    maxSteps: Math.max(1, Math.floor(config.maxSteps ?? DEFAULT_MAX_STEPS)),
    instructions: config.instructions,
    tools: config.tools,
    toolCallers: config.toolCallers,
    toolChoice: config.toolChoice,
    activeTools: config.activeTools,
    settings: config.settings,
    hooks,
    stream,
    channel,
    logger,
    getModel: () => model,
    ensureInit: init,
    emit,
    async emitLifecycle(event: AgentLifecycleEvent) {
      await stream.append([createEntry("event", event, { turnId: event.turnId })], true);
      await emit(event);
    },
    persistMessages,
    unprojected(message) {
      if (unprojectedTypes.has(message.type)) return;
      unprojectedTypes.add(message.type);
      logger.debug(`custom message type ${message.type}: no plugin projects it; it is left out of model requests`);
    },
  };

  const scheduler = new TurnScheduler({
    logger,
    emit,
    createTurn(incoming) {
      const turn = new ActiveTurn(incoming, config.runtimeContext ?? {}, config.toolsContext ?? {});
      events.open(turn.id);
      return turn;
    },
    runTurn: (turn) => runTurn(context, turn),
    persist: (message) => persistMessages([message]),
  });
  let stopping: Promise<void> | undefined;

  const assertRunning = (): void => {
    if (stopping) throw new AgentRuntimeError("Agent is stopping");
    if (stopped) throw new AgentRuntimeError("Agent is stopped; call init() to start it again");
  };

  /** The decision table of AG-18, with AG-19's reading of `reject`. */
  const send = (message: AgentMessage, options: AgentSendOptions = {}): string | undefined => {
    assertRunning();
    const ifBusy = options.ifBusy ?? "defer";
    const trigger = options.trigger ?? true;
    if (trigger && ifBusy === "reject" && !scheduler.isIdle()) throw new AgentBusyError();
    const accepting = scheduler.accepting();
    if (accepting && ifBusy === "join") {
      accepting.joined.push(message);
      return trigger ? accepting.id : undefined;
    }
    if (accepting && !trigger) {
      accepting.deferred.push(message);
      return undefined;
    }
    if (!trigger) {
      scheduler.writeInBackground(message);
      return undefined;
    }
    return scheduler.enqueue([message]).id;
  };

  const agent: Agent = {
    id,
    channel,
    storage,
    state,
    init,
    send,
    run(message, options = {}) {
      const turnId = send(message, { ...options, trigger: true }) as string;
      return events.follow(turnId);
    },
    continue(prompt) {
      assertRunning();
      const text = prompt === undefined || prompt.trim() === "" ? undefined : prompt;
      if (scheduler.isIdle()) return scheduler.enqueue(text === undefined ? [] : [createUserMessage(text)]).id;
      scheduler.mergeWake(text);
      return undefined;
    },
    wait: (options) => scheduler.wait(options),
    interrupt: (reason) => scheduler.interrupt(reason),
    stop() {
      stopping ??= (async () => {
        let failure: unknown;
        try {
          await scheduler.interrupt("Agent stopped");
          if (initialized) {
            initialized = false;
            for (const plugin of [...plugins].reverse()) {
              try {
                await plugin.stop?.();
              } catch (error) {
                failure ??= error;
              }
            }
          }
          // After the plugins' stop, which may still append: the next start reads only what comes after.
          await stream.checkpoint();
          await emit({ type: "agent.stop" });
        } finally {
          stopped = true;
          stopping = undefined;
        }
        if (failure !== undefined) throw failure;
      })();
      return stopping;
    },
    isIdle: () => scheduler.isIdle(),
    getActiveTurnId: () => scheduler.accepting()?.id ?? null,
    getModel: () => model,
    setModel(next) {
      model = next;
    },
    clear: () => stream.clear(),
  };
  registerDiagnostics(agent, { turnBuffers: () => events.size, historySize: () => stream.size });
  return agent;
}
