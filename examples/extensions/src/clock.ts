import { Buffer } from "node:buffer";
import { ResourceError } from "koishi-plugin-ishiki";
import type { ResourcePayload, SchemeHandler } from "koishi-plugin-ishiki";

export class ClockHandler implements SchemeHandler {
  public readonly scheme = "clock";

  public resolve(input: string): ResourcePayload {
    const url = new URL(input);
    if (url.hostname !== "now") {
      throw new ResourceError("resource_not_found", "expected clock://now");
    }
    const text = new Date().toISOString();
    return { type: "text", url: input, text, size: Buffer.byteLength(text) };
  }
}
