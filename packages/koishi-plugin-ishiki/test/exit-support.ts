// Shared set-up for the exit and attachments tests: a runtime-like agent with a real ResourceCenter in a temp
// home, the attachment plugins and the exit installed the way the runtime installs them.
import { Buffer } from "node:buffer";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import type { LanguageModel, ModelMessage, ToolSet } from "ai";
import { createAgent, type Agent, type AgentMessage, type AgentPlugin, type AgentStorage } from "@yesimagent/core";
import { createAttachmentPlugins, sendAttachmentRecord, type ResourceSettings } from "../src/attachments/index.js";
import { wrapToolSet, type ExitContext } from "../src/exit/index.js";
import { createResourceCenter, type OwnedResourceCenter } from "../src/resources/index.js";
import "../src/types/index.js";
import { tempDir } from "../../core/test/agent-support.js";

/** A PNG header of the given size; `salt` makes distinct contents. Nothing here decodes pixels. */
export function png(width: number, height: number, salt = 0): Uint8Array {
  const bytes = Buffer.alloc(64);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write("IHDR", 12, "latin1");
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.writeUInt32BE(salt, 40);
  return new Uint8Array(bytes);
}

export const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64");

export interface Runtime {
  agent: Agent;
  resources: OwnedResourceCenter;
  exit: ExitContext;
  home: string;
  /** Every message list `project` produced, per step (ids and timestamps included). */
  projected: AgentMessage[][];
  dispose(): Promise<void>;
}

export interface RuntimeOptions {
  model: LanguageModel;
  tools?: (resources: OwnedResourceCenter) => ToolSet;
  settings?: Partial<ResourceSettings>;
  storage?: AgentStorage;
  /** Extra plugins between `associate` and `project` (e.g. a fact renderer standing in for the context engine). */
  plugins?: AgentPlugin[];
  /** Reuse a runtime home (a restart); a fresh temp dir otherwise. */
  home?: string;
}

/** Facts reach the model as one text line each, as a context engine would render them. */
export const factRenderer: AgentPlugin = {
  name: "test.facts",
  toModelMessages(message) {
    if (message.type === "ishiki.message.created") {
      const fact = message.data as { user: { name: string }; messageId: string; content: string };
      return [{ role: "user", content: `${fact.user.name} #${fact.messageId}: ${fact.content}` }];
    }
    if (message.type === "ishiki.message.deleted") return [{ role: "user", content: `message #${(message.data as { messageId: string }).messageId} was retracted` }];
    return undefined;
  },
};

export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const temp = options.home === undefined ? await tempDir() : { dir: options.home, dispose: async () => {} };
  const resources = createResourceCenter({ runtimeId: "test/main", home: temp.dir });
  const attachments = createAttachmentPlugins({ resources, settings: options.settings });
  const projected: AgentMessage[][] = [];
  const capture: AgentPlugin = {
    name: "test.capture",
    enforce: "post",
    transformMessages(messages) {
      projected.push(structuredClone(messages));
    },
  };
  let agent: Agent | undefined;
  const exit: ExitContext = {
    runtimeId: "test/main",
    resources,
    imageInput: options.settings?.imageInput ?? false,
    appendAttachment: (record) => sendAttachmentRecord(agent!, record),
  };
  const tools = options.tools?.(resources) ?? {};
  const toolPlugin: AgentPlugin = { name: "test.tools", extendTools: () => wrapToolSet(tools, exit) };
  agent = createAgent({
    model: options.model,
    plugins: [attachments.associate, factRenderer, ...(options.plugins ?? []), toolPlugin, attachments.project, capture],
    ...(options.storage ? { storage: options.storage } : {}),
  });
  return {
    agent,
    resources,
    exit,
    home: temp.dir,
    projected,
    async dispose() {
      await agent!.stop();
      resources.dispose();
      await temp.dispose();
    },
  };
}

/** The prompt's user messages that carry attachment material. */
export function attachmentMessages(prompt: LanguageModelV4CallOptions["prompt"]) {
  return prompt.filter(
    (message) => message.role === "user" && message.content.some((part) => part.type === "text" && part.text.startsWith("Attachment material from")),
  );
}

/** The text of a prompt message's parts, file parts as `<file:mediaType>`. */
export function partsText(message: LanguageModelV4CallOptions["prompt"][number]): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((part) => (part.type === "text" ? part.text : part.type === "file" ? `<file:${part.mediaType}>` : part.type === "tool-result" ? JSON.stringify(part.output) : part.type))
    .join("|");
}

export type { ModelMessage };
