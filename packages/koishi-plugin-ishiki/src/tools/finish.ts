import { tool } from "ai";
import { z } from "zod";

const FINISH_DESCRIPTION = "End your turn when you have nothing more to do. Only send_message reaches users; finish sends nothing.";

/** `finish { reason? }` → `{ ok: true }` (spec 06 EN-45); the stop rule ends the turn after its step. */
export function createFinishTool() {
  return tool({
    description: FINISH_DESCRIPTION,
    inputSchema: z.object({ reason: z.string().optional().describe("Why the turn ends; for the logs only.") }),
    outputSchema: z.object({ ok: z.literal(true) }),
    execute: async () => ({ ok: true as const }),
  });
}
