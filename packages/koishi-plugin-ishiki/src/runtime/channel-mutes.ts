import type { Agent, AgentState } from "@yesimagent/core";

/**
 * The agent state with the owner's mutes: `platform:selfId/channelId` → end of the mute (ms since the epoch).
 * Spelled out here because augmenting the core's `AgentCustomState` through the package does not reach its
 * `AgentState` alias (checked with TypeScript 5.9: the interface merges, the alias keeps the old members).
 */
type MuteState = AgentState & { ishikiMutes?: Record<string, number> };

/** The end of a mute without a duration: the latest time a `Date` holds, lifted only by `ishiki.unmute`. */
export const UNTIL_UNMUTED = 8.64e15;

/**
 * The owner's mutes of one runtime (`ishiki.mute` / `ishiki.unmute`, issue 22), by `platform:selfId/channelId`.
 * Written through the agent's state (a `state` fact, so a mute survives a restart) and mirrored here, so the
 * wakeup gate reads a map instead of cloning the state per fact. Expired mutes are forgotten at the next write.
 */
export class ChannelMutes {
  private readonly until = new Map<string, number>();

  public constructor(
    private readonly agent: Agent,
    private readonly now: () => number,
  ) {
    this.load((agent.state.get() as MuteState).ishikiMutes);
  }

  /** Replaces the mirror with a stored snapshot (a restart, or a preview replaying `state` facts). */
  public load(mutes: Record<string, number> | undefined): void {
    this.until.clear();
    for (const [key, until] of Object.entries(mutes ?? {})) if (typeof until === "number") this.until.set(key, until);
  }

  /** The end of the mute of `key`, when it is muted now. */
  public mutedUntil(key: string): number | undefined {
    const until = this.until.get(key);
    return until !== undefined && until > this.now() ? until : undefined;
  }

  public async mute(key: string, until: number): Promise<void> {
    await this.write((mutes) => ({ ...mutes, [key]: until }));
  }

  /** Lifts the mute of `key`; resolves false when it was not muted. */
  public async unmute(key: string): Promise<boolean> {
    const was = this.mutedUntil(key) !== undefined;
    if (this.until.has(key)) await this.write(({ [key]: _, ...rest }) => rest);
    return was;
  }

  private async write(change: (mutes: Record<string, number>) => Record<string, number>): Promise<void> {
    const at = this.now();
    const live = Object.fromEntries([...this.until].filter(([, until]) => until > at));
    const next = change(live);
    await this.agent.state.update({ ishikiMutes: next } as Partial<MuteState>);
    this.load(next);
  }
}
