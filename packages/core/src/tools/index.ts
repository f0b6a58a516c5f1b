export { createReadTool, toReadResult, type ReadToolOptions } from "./read.js";
export { createFinishTool } from "./finish.js";
export { createWaitTool, WaitController } from "./wait.js";
export type { WaitInput, WaitResult } from "./wait-schema.js";
export { PendingWake } from "./wake-rule.js";
export { createSendMessageTool, type SendMessageToolOptions } from "./send-message.js";
export type { SendMessageInput, SendMessageResult } from "./send-message-schema.js";
export type { OutboundAddress, OutboundPort } from "./outbound-port.js";
export { createMemoryOutboundPort, type MemoryOutboundPort, type SentMessage } from "./memory-outbound-port.js";
