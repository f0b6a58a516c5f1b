import { createCustomMessage, type Agent } from "@yesimagent/core";
import type { IshikiAttachment } from "../types/index.js";

/**
 * Submits a tool's attachment record (04 EX-19): joined to the running step, so it is persisted after the
 * step's tool batch and visible from the next step.
 */
export function sendAttachmentRecord(agent: Pick<Agent, "send">, record: IshikiAttachment): void {
  agent.send(createCustomMessage("ishiki.attachment", record), { trigger: false, ifBusy: "join" });
}
