import type { AgentEvent, AgentMessage, AgentRuntime, IshikiMessageCreated } from "koishi-plugin-ishiki";

/** How many recent messages are kept to resolve `source` ids and speakers. */
const KEPT_MESSAGES = 500;

export interface Speaker {
  platform: string;
  userId: string;
  name: string;
  channel: string;
  at: number;
}

function createdFact(message: AgentMessage): IshikiMessageCreated | undefined {
  if (message.role !== "custom" || message.type !== "ishiki.message.created") return undefined;
  return message.data as IshikiMessageCreated;
}

/**
 * What one runtime's memory needs from its fact stream: the latest speakers (whose person memories enter the
 * instructions) and recent message ids (to resolve the `source` of `memory_save`). It learns from
 * `message.appended` after `attach`; the stored stream is read once, only when a source id is not known yet
 * (after a restart the model may cite a message from before it).
 */
export class Conversation {
  private readonly messages = new Map<string, IshikiMessageCreated>();
  private readonly speakers = new Map<string, Speaker>();
  private handle?: AgentRuntime;
  private seeded?: Promise<void>;

  /** Subscribes to the runtime's fact stream; returns the unsubscribe. */
  public attach(handle: AgentRuntime): () => void {
    this.handle = handle;
    return handle.agent.channel.subscribe("agent", (event: AgentEvent) => {
      if (event.type !== "message.appended") return;
      const fact = createdFact(event.message);
      if (fact) this.learn(fact);
    });
  }

  /** The latest `count` speakers active within `windowMs` of `now`, latest first; the bot itself excluded. */
  public activeSpeakers(count: number, windowMs: number, now: number): Speaker[] {
    return [...this.speakers.values()]
      .filter((speaker) => now - speaker.at <= windowMs)
      .sort((a, b) => b.at - a.at)
      .slice(0, count);
  }

  /** The latest speaker with this user id, on any platform of the runtime. */
  public speaker(userId: string): Speaker | undefined {
    let found: Speaker | undefined;
    for (const speaker of this.speakers.values()) if (speaker.userId === userId && (!found || speaker.at > found.at)) found = speaker;
    return found;
  }

  /** The message `id` (with or without its leading `#`), reading the stored stream once if needed. */
  public async message(id: string): Promise<IshikiMessageCreated | undefined> {
    const key = id.replace(/^#/, "");
    const known = this.messages.get(key);
    if (known || !this.handle) return known;
    this.seeded ??= this.seed(this.handle);
    await this.seeded;
    return this.messages.get(key);
  }

  private learn(fact: IshikiMessageCreated): void {
    this.messages.delete(fact.messageId);
    this.messages.set(fact.messageId, fact);
    if (this.messages.size > KEPT_MESSAGES) this.messages.delete(this.messages.keys().next().value!);
    if (fact.user.id === fact.selfId) return;
    const key = `${fact.platform}:${fact.user.id}`;
    const previous = this.speakers.get(key);
    if (previous && previous.at > fact.timestamp) return;
    this.speakers.delete(key);
    this.speakers.set(key, { platform: fact.platform, userId: fact.user.id, name: fact.user.name, channel: `${fact.platform}:${fact.channelId}`, at: fact.timestamp });
    if (this.speakers.size > KEPT_MESSAGES) this.speakers.delete(this.speakers.keys().next().value!);
  }

  private async seed(handle: AgentRuntime): Promise<void> {
    const entries = await handle.agent.storage.read();
    for (const entry of entries) {
      if (entry.type !== "message") continue;
      const fact = createdFact(entry.data);
      if (fact && !this.messages.has(fact.messageId)) {
        this.messages.set(fact.messageId, fact);
        if (this.messages.size > KEPT_MESSAGES) this.messages.delete(this.messages.keys().next().value!);
      }
    }
  }
}
