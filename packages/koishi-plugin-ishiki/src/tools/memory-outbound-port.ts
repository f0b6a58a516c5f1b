import type { OutboundAddress, OutboundPort } from "./outbound-port.js";

export interface SentMessage {
  address: OutboundAddress;
  content: string;
  ids: string[];
}

/** An in-memory port for tests: records every message; `fail` may reject chosen messages. */
export interface MemoryOutboundPort extends OutboundPort {
  readonly sent: SentMessage[];
  fail?: (address: OutboundAddress, content: string) => Error | undefined;
}

export function createMemoryOutboundPort(): MemoryOutboundPort {
  let counter = 0;
  const port: MemoryOutboundPort = {
    sent: [],
    async send(address, content) {
      const error = port.fail?.(address, content);
      if (error) throw error;
      counter += 1;
      const ids = [`sent-${counter}`];
      port.sent.push({ address: { ...address }, content, ids });
      return ids;
    },
  };
  return port;
}
