import { ToolError } from "koishi-plugin-ishiki";
import type { IshikiMessageCreated, RuntimeDomain } from "koishi-plugin-ishiki";
import type { Conversation } from "./conversation.js";
import { memorySection } from "./instructions.js";
import type { Embedder } from "./search/embedder.js";
import type { MemoryRecord, MemoryScope } from "./store/memory-record.js";
import type { MemoryStore } from "./store/memory-store.js";
import { canSee, type ProfileMemories, type Viewer } from "./store/profile-memories.js";
import type { MemorySettings } from "./settings.js";

export interface ResolvedSubject {
  subject: string;
  label: string;
}

/** `Name(id)` as chat lines show a person, or the id alone. */
const personTitle = (name: string, id: string): string => (name && name !== id ? `${name}(${id})` : id);

/**
 * One runtime's view of its profile's memories: who is looking (its channels), how the model's subject ids map
 * to stored subjects, and the instruction section. Shared by the tools, the `memory://` scheme and the section.
 */
export class RuntimeMemory {
  public readonly viewer: Viewer;

  public constructor(
    public readonly store: MemoryStore,
    public readonly profile: string,
    private readonly domain: RuntimeDomain,
    public readonly settings: MemorySettings,
    public readonly conversation: Conversation,
    public readonly embedder: Embedder | undefined,
    /** One log line for what the model is not told (a failed embedding call, a skipped consolidation). */
    public readonly warn: (message: string) => void,
  ) {
    this.viewer = { profile, channels: domain.mode === "channel" ? new Set([`${domain.platform}:${domain.channelId}`]) : "all" };
  }

  public memories(): Promise<ProfileMemories> {
    return this.store.profile(this.profile);
  }

  /** The memory `id` if this runtime may see it. */
  public async visible(id: number): Promise<MemoryRecord | undefined> {
    const record = (await this.memories()).records.get(id);
    return record && canSee(this.viewer, record) ? record : undefined;
  }

  /** `<platform>:<channelId>` of the channel the runtime talks in now: its own, or in cross mode the latest speaker's. */
  public currentChannel(): string | undefined {
    if (this.domain.mode === "channel") return `${this.domain.platform}:${this.domain.channelId}`;
    return this.conversation.activeSpeakers(1, Number.POSITIVE_INFINITY, Date.now())[0]?.channel;
  }

  /** The platform of a subject id the model wrote: the runtime's own, the source message's, or a known speaker's. */
  private platformFor(userId: string | undefined, source: IshikiMessageCreated | undefined): string {
    if (this.domain.mode === "channel") return this.domain.platform;
    if (source) return source.platform;
    const speaker = userId === undefined ? undefined : this.conversation.speaker(userId);
    if (speaker) return speaker.platform;
    const platforms = new Set(Object.keys(this.domain.accounts).map((account) => account.split(":", 1)[0]));
    if (platforms.size === 1) return [...platforms][0];
    throw new ToolError("cannot tell the platform of this subject; give source, the id of a message in this conversation");
  }

  /** Maps the model's `subject` (a user or channel id as shown in chat) to the stored subject of `scope`. */
  public resolveSubject(scope: MemoryScope, subject: string | undefined, source: IshikiMessageCreated | undefined): ResolvedSubject {
    if (scope === "profile") return { subject: "", label: "" };
    if (scope === "person") {
      const userId = subject ?? source?.user.id;
      if (userId === undefined || userId === "") throw new ToolError("a person memory needs subject (the person's user id) or source (a message of theirs)");
      const platform = this.platformFor(userId, source);
      const name = source?.user.id === userId ? source.user.name : this.conversation.speaker(userId)?.name ?? "";
      return { subject: `${platform}:${userId}`, label: name };
    }
    if (this.domain.mode === "channel") {
      if (subject !== undefined && subject !== this.domain.channelId) throw new ToolError(`channel memories of this runtime belong to channel ${this.domain.channelId}; another channel's memory cannot be written or read here`);
      return { subject: `${this.domain.platform}:${this.domain.channelId}`, label: "" };
    }
    if (subject !== undefined) return { subject: `${this.platformFor(undefined, source)}:${subject}`, label: "" };
    const channel = source ? `${source.platform}:${source.channelId}` : this.currentChannel();
    if (channel === undefined) throw new ToolError("a channel memory needs subject (the channel id) or source (a message in that channel)");
    return { subject: channel, label: "" };
  }

  /** The memory section for this turn (bounded by `instructionChars`). */
  public async instructions(now = Date.now()): Promise<string> {
    const memories = await this.memories();
    const channel = this.currentChannel();
    const speakers = this.conversation.activeSpeakers(this.settings.recentPeople, this.settings.recentMinutes * 60_000, now);
    const people = speakers.map((speaker) => ({ title: personTitle(speaker.name, speaker.userId), memories: memories.about("person", `${speaker.platform}:${speaker.userId}`) }));
    const channelMemories = channel === undefined ? [] : memories.about("channel", channel);
    const profile = memories.about("profile", "");
    const listed = channelMemories.length + profile.length + people.reduce((sum, person) => sum + person.memories.length, 0);
    const visible = memories.count("person") + memories.count("profile");
    return memorySection(
      {
        channel: channel === undefined ? undefined : { title: channel, memories: channelMemories },
        people,
        profile,
        elsewhere: Math.max(0, visible + channelMemories.length - listed),
      },
      this.settings.instructionChars,
    );
  }
}
