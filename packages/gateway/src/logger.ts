/**
 * Where the gateway writes its log lines. The Koishi integration passes `ctx.logger("ishiki")`; lines never
 * contain expanded secrets (spec 12 QA-12).
 */
export interface GatewayLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: GatewayLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
