/** Base class of the agent's own errors; `name` is stable (spec 12 QA-3). */
export class AgentRuntimeError extends Error {
  override name = "AgentRuntimeError";
}

/** A triggered `send`/`run` with `ifBusy: "reject"` while the agent is not idle (AG-18, AG-19). */
export class AgentBusyError extends AgentRuntimeError {
  override name = "AgentBusyError";

  constructor() {
    super("Agent is busy");
  }
}

/** Two sources contributed the same tool name to one assembly (AG-39); the turn fails. */
export class ToolConflictError extends AgentRuntimeError {
  override name = "ToolConflictError";

  constructor(readonly toolName: string) {
    super(`Tool "${toolName}": contributed twice to the same tool set; rename or disable one of them`);
  }
}

/**
 * Thrown by a tool whose message is meant for the model as is: the error result shows exactly `message`,
 * without the `<name>: ` prefix other errors get (AG-46).
 */
export class ToolError extends Error {
  override name = "ToolError";
}
