import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { ToolSet } from "ai";
import { createAgent, createJsonlStorage, type Agent } from "@yesimagent/core";
import { ContextEngine, ToolcallEngine, WakeupEngine, type ContextEngineInstance, type EngineConfig, type WakeupEngineInstance } from "../engines/index.js";
import { Extension, type ExtensionInstance } from "../extension/index.js";
import { resolveResourceSettings } from "../attachments/index.js";
import { createResourceCenter } from "../resources/index.js";
import { createFinishTool, createReadTool, createSendMessageTool, createWaitTool, hasScheduledWork, WaitController } from "../tools/index.js";
import { ishikiEntryChecks, type IshikiEvent } from "../types/index.js";
import { captureMedia } from "./deliver.js";
import { baseInstructions, joinInstructions, readPersona, resourcesInstructions } from "./instructions.js";
import { gatewayModelSource, ModelBinding } from "./model-binding.js";
import { leaseHome } from "./home-lease.js";
import { runtimeHomeOf, runtimeIdOf } from "./runtime-address.js";
import type { Runtime, RuntimeOptions } from "./runtime-contract.js";
import { historyRetention } from "./history-retention.js";
import { createExtensionHost, trackResources } from "./runtime-host.js";
import { createRuntimePlugin } from "./runtime-plugin.js";
import { Teardown } from "./teardown.js";
import { mergeToolGroups, type ToolGroup } from "./tool-assembly.js";
import { createToolOutputStage } from "./tool-output.js";
import { resolveCodemodeSettings, resolveToolsearchSettings } from "./program-settings.js";
import { ToolSurface } from "./tool-surface.js";
import { catalogMessages, ToolSurfacePlugin } from "./tool-surface-plugin.js";
import { outboundTarget } from "./outbound-target.js";
import { createTextReplyPlugin, textReplyMode } from "./text-reply.js";
import { attachWakeup, type WakeupAttachment } from "./wakeup-attach.js";
import { channelKey } from "../engines/wakeup/channel-key.js";
import { gateWakes, meterGateway, meterLanguageModel, UsageRecorder, type CallSink } from "../usage/index.js";

/**
 * Creates one runtime in the order of spec 08 KP-18: home, ResourceCenter, the context, wakeup and toolcall
 * instances, extension instances in `extends` order, the agent, then `attach` of the context engine, the
 * wakeup engine and the extensions. A provider `invoke` or an engine `attach` that throws fails the creation,
 * and what was already created is stopped in KP-19 order; an extension `attach` that throws only warns.
 */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { profile, domain, providers } = options;
  const id = runtimeIdOf(profile.id, domain);
  const home = runtimeHomeOf(options.root, domain);
  const logger = options.prefixLogger(options.logger, id);
  // One writer per events.jsonl (AG-10): a runtime of this home still stopping finishes before this one reads.
  const releaseHome = await leaseHome(home, () => logger.warn(`waiting for the previous runtime of ${home} to finish stopping (one writer per events.jsonl)`));
  let owned: ReturnType<typeof createResourceCenter>;
  try {
    await mkdir(home, { recursive: true });
    owned = createResourceCenter({ runtimeId: id, home });
  } catch (error) {
    releaseHome();
    throw error;
  }

  const resources = trackResources(owned);
  const teardown = new Teardown(logger);
  teardown.add("store", "resources", () => owned.dispose());
  teardown.add("store", "home lease", releaseHome);
  teardown.add("final", "schemes", () => {
    const left = resources.disposeLeftovers();
    if (left.length > 0) logger.debug("disposed schemes left attached at stop: %s", left.join(", "));
  });

  let handle: Runtime | undefined;
  let agent: Agent | undefined;
  const { budget } = options;
  // The profile's model of the moment: a reached budget with `whenReached: group` runs on its cheaper group.
  const modelRef = (): string => budget?.modelFor(profile.model) ?? profile.model;
  const usage = new UsageRecorder(() => agent, logger, budget);
  // One host per requester, so every model call it hands out is metered and attributed to it (issue 22).
  const hostFor = (sink: CallSink) =>
    createExtensionHost(
      {
        profileId: profile.id,
        runtimeId: id,
        root: options.root,
        home,
        dataPath: options.dataPath,
        fiber: options.fiber,
        domain,
        resources: resources.center,
        logger,
        gateway: meterGateway(options.gateway, sink),
        profileModel: () => {
          const ref = modelRef();
          return meterLanguageModel(options.gateway.profileModel(ref, { failover: profile.failover, logger }), ref, sink);
        },
      },
      () => handle,
    );

  try {
    const context: ContextEngineInstance = await providers.context[ContextEngine.invoke](hostFor(usage.sideSink(`context:${profile.context.engine}`)), profile.context as EngineConfig<never>);
    const wakeup: WakeupEngineInstance = await providers.wakeup[WakeupEngine.invoke](hostFor(usage.sideSink(`wakeup:${profile.wakeup.engine}`)), profile.wakeup as EngineConfig<never>);
    // A toolcall engine's own calls are part of the step it serves.
    const toolcall = await providers.toolcall[ToolcallEngine.invoke](hostFor(usage.stepSink(`toolcall:${profile.toolcall.engine}`)), profile.toolcall as EngineConfig<never>);
    const extensions: ExtensionSlot[] = [];
    for (const provider of providers.extensions) {
      const instance = await provider.service[Extension.invoke](hostFor(usage.sideSink(`extension:${provider.name}`)), provider.config);
      if (instance === undefined) continue;
      const slot: ExtensionSlot = { name: provider.name, instance };
      extensions.push(slot);
      registerExtensionStop(slot, teardown);
    }

    const waits = new WaitController(logger);
    const settings = resolveResourceSettings(profile.resources);
    const output = createToolOutputStage({ runtimeId: id, resources: resources.center, settings, agent: () => agent! });
    const coreTools: ToolSet = {
      read: createReadTool(resources.center, { imageInput: settings.imageInput }),
      send_message: createSendMessageTool({
        port: options.outbound,
        cross: domain.mode === "cross",
        resolveTarget: (target) => outboundTarget(domain, target),
        ...options.sendMessage?.(resources.center),
      }),
      finish: createFinishTool(),
    };
    const textReply = textReplyMode(profile, domain.mode === "cross");
    const surface = new ToolSurface({
      codemode: resolveCodemodeSettings(profile.codemode),
      toolsearch: resolveToolsearchSettings(profile.toolsearch),
      logger,
      programViews: { read: createReadTool(resources.center, { sandbox: true }) },
    });
    teardown.add("final", "codemode sandbox", () => surface.close());
    const residentTools: ToolSet = { wait: createWaitTool(waits), ...surface.kernelTools() };

    // The surface's tools before the exit wraps them: what toolsearch's catalog is computed from.
    const surfaceTools = async (): Promise<ToolSet> => {
      const groups: ToolGroup[] = [{ source: "core", tools: coreTools }];
      for (const { name, instance } of extensions) {
        if (instance.extendTools) groups.push({ source: `extension ${name}`, tools: await instance.extendTools() });
      }
      groups.push({ source: "core", tools: residentTools });
      const merged = mergeToolGroups(groups, surface.searching ? { wait: "core", search: "core" } : { wait: "core" });
      return surface.complete(merged);
    };
    const assembleTools = async (): Promise<ToolSet> => output.wrapTools(await surfaceTools());
    const assembleInstructions = async (): Promise<string> => {
      const parts: Array<string | undefined> = [baseInstructions(domain.mode === "cross", textReply === "send", surface.sandbox !== undefined), await readPersona(options.root), resourcesInstructions(settings.imageInput)];
      for (const { instance } of extensions) parts.push(await instance.extendInstructions?.());
      parts.push(await context.instructions?.());
      return joinInstructions(parts);
    };

    const turnSink = usage.stepSink();
    const model = new ModelBinding(toolcall, gatewayModelSource(options.gateway, modelRef, { failover: profile.failover, logger }, (built, ref) => meterLanguageModel(built, ref, turnSink)));
    const plugin = createRuntimePlugin({ context, cross: domain.mode === "cross", instructions: assembleInstructions, tools: assembleTools, model, agent: () => agent! });
    const surfacePlugin = new ToolSurfacePlugin(surface, () => agent!);
    const textReplyPlugins = textReply === undefined ? [] : [createTextReplyPlugin({ mode: textReply, sendMessage: coreTools.send_message, logger, agent: () => agent! })];
    const retention = historyRetention(context, wakeup, [output.history, surfacePlugin]);
    agent = createAgent({
      id,
      model: model.model,
      storage: createJsonlStorage(join(home, "events.jsonl"), { logger, checks: ishikiEntryChecks }),
      plugins: [plugin, surfacePlugin, ...textReplyPlugins, ...output.plugins, usage.plugin()],
      logger,
      ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
      ...(retention === undefined ? {} : { history: retention }),
    });
    const running = agent;
    teardown.add("agent", "agent", () => running.stop());
    teardown.add("final", "pending writes", () => running.wait());
    teardown.add("final", "usage", () => usage.stop());
    await running.init();
    await initialiseCatalog(surface, surfacePlugin, running, retention !== undefined, surfaceTools, logger);

    let wakeupSide: WakeupAttachment | undefined;
    const runtime: Runtime = {
      id,
      profileId: profile.id,
      domain,
      home,
      agent: running,
      resources: resources.center,
      logger,
      // A policy preview's granted model calls are real spending: metered under their own purpose.
      host: hostFor(usage.sideSink("wakeup:preview")),
      async deliver(event: IshikiEvent) {
        running.send(await captureMedia(event, resources.center), { trigger: false, ifBusy: "join" });
      },
      wake(prompt?: string) {
        return running.continue(prompt === undefined || prompt.trim() === "" ? "Continue." : prompt);
      },
      get wakeup(): WakeupAttachment {
        if (wakeupSide === undefined) throw new Error("the wakeup engine is not attached yet");
        return wakeupSide;
      },
      hasScheduledWork: () => waits.isArmed() || hasScheduledWork(running) || wakeupSide?.hasScheduledWork() === true,
      stop: () => teardown.run(),
    };
    handle = runtime;

    if (context.attach) teardown.add("engines", "context engine", context.attach(running));
    const attached = attachWakeup(wakeupView(running, options, logger, teardown, () => wakeupSide), wakeup, { engine: profile.wakeup.engine, debug: (line) => logger.debug(line) });
    wakeupSide = attached;
    teardown.add("engines", "wakeup engine", () => attached.detach());
    teardown.add("engines", "wait", waits.attach(running));
    for (const extension of extensions) await attachExtension(extension, runtime);
    return runtime;
  } catch (error) {
    await teardown.run();
    throw error;
  }
}

/**
 * Toolsearch at creation (spec 05 CT-28, CT-31): rebuild the discovered set from persisted catalogs, run one
 * assembly for the baseline and write a baseline (none yet) or a delta (live tools differ). The assembly stops
 * before the exit's wrapping: a catalog needs only names, descriptions and signatures, and wrapping 500 tools in
 * every new runtime was most of toolsearch's creation cost (issue 19). The catalog is queued, not awaited. A failing assembly
 * writes nothing; the next turn's first step writes it. With the runtime's retention the plugin observed the
 * catalogs while the agent read its stream (`observed`); without it they are read from storage here.
 */
async function initialiseCatalog(surface: ToolSurface, plugin: ToolSurfacePlugin, agent: Agent, observed: boolean, assemble: () => Promise<ToolSet>, logger: Runtime["logger"]): Promise<void> {
  if (!surface.searching) return;
  if (!observed) plugin.remember(catalogMessages(await agent.storage.read()));
  surface.restore(plugin.catalogs().map((message) => message.data));
  try {
    await assemble();
  } catch (error) {
    logger.warn(`toolsearch: initial tool assembly failed: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  // Written in the background, as a delivered fact is: every later append and read of the agent queues behind
  // it, and awaiting the file's creation here made a thousand new runtimes wait on the disk (issue 19).
  plugin.writeCatalog();
}

/**
 * The agent the wakeup engine attaches to: the agent itself, or, under a budget with `whenReached: mentions`, a
 * view whose `continue()` holds wakes back to direct mentions once the day's budget is reached (issue 22).
 */
function wakeupView(agent: Agent, options: RuntimeOptions, logger: Runtime["logger"], teardown: Teardown, decisions: () => WakeupAttachment | undefined): Agent {
  const { budget } = options;
  if (budget === undefined || budget.settings.whenReached !== "mentions") return agent;
  const gate = gateWakes(agent, () => !budget.reached, (latest) => {
    logger.debug("wake held back: the daily budget is reached and the message does not address the bot");
    // The engine's wake did not happen: ishiki.why says why. Engines report a wake right after calling
    // `continue()`, so this report waits a microtask to follow it in the ring.
    const about = latest === undefined ? {} : { channel: channelKey(latest), messageId: latest.messageId };
    queueMicrotask(() => decisions()?.report({ outcome: "quiet", rule: "budget", detail: "the daily budget is reached; only messages addressing the bot wake it", ...about }));
  });
  teardown.add("engines", "budget gate", gate.dispose);
  return gate.agent;
}

/** An extension's instance in one runtime, with the disposer its `attach` returned. */
interface ExtensionSlot {
  name: string;
  instance: ExtensionInstance;
  dispose?: () => void;
}

/** From invoke on, an instance is stopped with its runtime: `stop()` first, then the attach disposer (XA-8). */
function registerExtensionStop(slot: ExtensionSlot, teardown: Teardown): void {
  const { name, instance } = slot;
  teardown.add("extensions", `extension ${name}`, async () => {
    if (instance.stop) await teardown.attempt({ label: `extension ${name} stop()`, run: () => instance.stop?.() });
    if (slot.dispose) await teardown.attempt({ label: `extension ${name} attach disposer`, run: slot.dispose });
  });
}

/** Attaches one extension (XA-7); a throw is a warning and the runtime starts anyway. */
async function attachExtension(slot: ExtensionSlot, runtime: Runtime): Promise<void> {
  try {
    const dispose = await slot.instance.attach?.(runtime);
    if (typeof dispose === "function") slot.dispose = dispose;
  } catch (error) {
    runtime.logger.warn(`extension ${slot.name}: attach failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
