/** What the agent and its storages log through; Koishi's `Logger` satisfies it. */
export interface AgentLogger {
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string, ...args: unknown[]): void;
}

const ignore = (): void => undefined;

/** The default when no logger is configured: the agent core never writes to the console itself. */
export const silentLogger: AgentLogger = { debug: ignore, info: ignore, warn: ignore, error: ignore };
