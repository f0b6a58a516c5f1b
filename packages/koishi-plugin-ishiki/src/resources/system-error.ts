/**
 * The text of a Node system error without the host paths Node puts in it (`ENAMETOOLONG: name too long, stat
 * '/srv/bot/…'` becomes `ENAMETOOLONG: name too long`), or undefined for other errors. No host path may reach
 * a model (docs/workspace.md, docs/resources.md), so every error text built from a system error goes through here.
 */
export function systemErrorText(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (typeof code !== "string" || !/^E[A-Z0-9]+$/.test(code)) return undefined;
  if (typeof syscall !== "string" && !error.message.startsWith(`${code}:`)) return undefined;
  const reason = /^E[A-Z0-9]+: ([^,']*)/.exec(error.message)?.[1]?.trim();
  return reason ? `${code}: ${reason}` : code;
}
