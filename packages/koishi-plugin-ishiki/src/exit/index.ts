/**
 * The unified model exit (spec 04 §1-2). How a runtime installs it together with attachments/:
 *
 * ```ts
 * const attachments = createAttachmentPlugins({ resources, settings: profile.resources });
 * const agent = createAgent({ ..., plugins: [attachments.associate, ...enginePlugins, attachments.project] });
 * const exit: ExitContext = {
 *   runtimeId, resources, imageInput: settings.imageInput,
 *   appendAttachment: (record) => sendAttachmentRecord(agent, record),
 * };
 * // in the plugin whose extendTools returns the assembled tool set, every time it assembles:
 * extendTools: () => wrapToolSet(assembledTools, exit),
 * ```
 *
 * - `wrapToolSet` is applied to the final tool set of each assembly; wrapping a wrapped tool starts from its
 *   original, so assemblies never stack. Program tools (default `["codemode"]`) return their final value from
 *   `execute`; only its top-level `attachments` array is searched, and their own `toModelOutput`, if any, sees
 *   the value with each item replaced by its marker.
 * - `associate` (`enforce: "pre"`) must be the first plugin: it folds the live history in `transformEntries`
 *   and, in `transformMessages`, drops tool records without a successful result and inserts platform records
 *   right after their facts, before the context engine renders. `project` (`enforce: "post"`) turns records
 *   into user messages after the engine's rendering, and writes `ishiki.delivery` with the step's batch.
 * - At activation, `resources.imageInput: true` is checked with `assertImageInput(gateway, profile.model)`;
 *   the Resources paragraph of the instructions takes `attachmentInstructions(imageInput)`.
 */
export { wrapToolSet } from "./wrap-tools.js";
export type { ExitContext, ToolAttachmentRecord } from "./exit-context.js";
