import { jsonSchema, tool } from "ai";
import { describe, expect, it } from "vitest";
import { createAgent, createEntry, createMemoryStorage, createUserMessage, type AgentEntry, type AgentEvent, type AgentPlugin } from "../src/index.js";
import { deferred, heldReply, promptTexts, recordEvents, scriptedModel } from "./agent-support.js";

declare module "../src/state.js" {
  interface AgentCustomState {
    touched?: number;
  }
}

/** A compact view of the stream: user texts, roles, lifecycle events, state. */
function view(entries: AgentEntry[]): string[] {
  return entries.map((e) => {
    if (e.type === "event") return e.data.type;
    if (e.type !== "message") return e.type;
    return e.data.role === "user" && typeof e.data.content === "string" ? e.data.content : e.data.role;
  });
}

describe("ordering guarantees", () => {
  it("AG-55 no concurrent write lands between a tool call and its result", async () => {
    const storage = createMemoryStorage();
    let agentRef: ReturnType<typeof createAgent> | undefined;
    const busy = tool({
      inputSchema: jsonSchema({ type: "object" }),
      execute: async () => {
        const agent = agentRef!;
        // Every kind of write a tool or host could issue while the call is open.
        await agent.state.update({ touched: 1 });
        await agent.storage.append(createEntry("message", createUserMessage("direct append")));
        agent.send(createUserMessage("joined from tool"), { trigger: false, ifBusy: "join" });
        agent.send(createUserMessage("deferred from tool"), { trigger: false });
        return "ok";
      },
    });
    const agent = createAgent({ model: scriptedModel([{ calls: [{ id: "c1", name: "busy" }] }, { text: "done" }]), storage, tools: { busy } });
    agentRef = agent;
    agent.send(createUserMessage("go"));
    await agent.wait();
    const order = view(await storage.read());
    const call = order.indexOf("assistant");
    expect(order[call + 1]).toBe("tool");
    expect(order).toEqual(["turn.start", "go", "state", "direct append", "assistant", "tool", "joined from tool", "assistant", "deferred from tool", "turn.done"]);
  });

  it("AG-55 AG-58 a record-only write from a message.appended listener while a step runs lands after the batch", async () => {
    const storage = createMemoryStorage();
    const agent = createAgent({ model: scriptedModel([{ calls: [{ id: "c1", name: "echo" }] }, { text: "done" }]), storage, tools: { echo: tool({ inputSchema: jsonSchema({ type: "object" }), execute: async () => "e" }) } });
    agent.channel.subscribe("agent", (event) => {
      if (event.type === "message.appended" && event.message.role === "assistant" && !event.message.content.toString().includes("done")) {
        agent.send(createUserMessage(`noted ${event.seq}`), { trigger: false, ifBusy: "join" });
      }
      if (event.type === "message.appended" && event.message.role === "user" && event.message.content === "go") {
        agent.send(createUserMessage("fact during step"), { trigger: false, ifBusy: "join" });
      }
    });
    agent.send(createUserMessage("go"));
    await agent.wait();
    const order = view(await storage.read());
    expect(order.slice(0, 6)).toEqual(["turn.start", "go", "assistant", "tool", "fact during step", "noted 3"]);
  });

  it("AG-56 per turn: incoming, each step's batch then its joined messages, deferred, terminal event, next turn; onTurnFinish sends record-only first", async () => {
    const storage = createMemoryStorage();
    const gate0 = heldReply({ calls: [{ id: "c1", name: "echo" }] });
    const gate1 = heldReply({ text: "step 1" });
    let agentRef: ReturnType<typeof createAgent> | undefined;
    const finishing: AgentPlugin = {
      name: "finisher",
      onTurnFinish: (result) => {
        if (result.messages.some((m) => m.role === "user" && m.content === "first")) {
          agentRef!.send(createUserMessage("triggered from finish"));
          agentRef!.send(createUserMessage("record from finish"), { trigger: false });
        }
      },
    };
    const model = scriptedModel([
      gate0.reply,
      gate1.reply,
      { text: "later turns" },
    ]);
    const agent = createAgent({ model, storage, tools: { echo: tool({ inputSchema: jsonSchema({ type: "object" }), execute: async () => "e" }) }, plugins: [finishing] });
    agentRef = agent;
    agent.send(createUserMessage("first"));
    await gate0.entered;
    agent.send(createUserMessage("joined 0"), { trigger: false, ifBusy: "join" });
    agent.send(createUserMessage("deferred A"), { trigger: false });
    agent.send(createUserMessage("queued turn"));
    gate0.release();
    await gate1.entered;
    agent.send(createUserMessage("joined 1"), { trigger: false, ifBusy: "join" });
    gate1.release();
    await agent.wait();
    expect(view(await storage.read())).toEqual([
      "turn.start", "first", "assistant", "tool", "joined 0", "assistant", "joined 1", "deferred A", "turn.done",
      "record from finish",
      "turn.start", "queued turn", "assistant", "turn.done",
      "turn.start", "triggered from finish", "assistant", "turn.done",
    ]);
  });

  it("AG-57 a message joined during the final step is persisted but seen by no step; seq and seenSeq show it", async () => {
    const gate = heldReply({ text: "final" });
    const storage = createMemoryStorage();
    const model = scriptedModel([gate.reply, { text: "next" }]);
    const agent = createAgent({ model, storage });
    const events = recordEvents(agent);
    const turnId = agent.send(createUserMessage("hi"));
    await gate.entered;
    agent.send(createUserMessage("late"), { trigger: false, ifBusy: "join" });
    // Written while the turn seals: from the listener of the tail flush.
    const off = agent.channel.subscribe("agent", (event) => {
      if (event.type === "message.appended" && event.message.role === "user" && event.message.content === "late") {
        off();
        agent.send(createUserMessage("while sealing"), { trigger: false, ifBusy: "join" });
      }
    });
    gate.release();
    await agent.wait();
    const appended = events.filter((e): e is Extract<AgentEvent, { type: "message.appended" }> => e.type === "message.appended");
    const seqOf = (text: string) => appended.find((e) => e.message.role === "user" && e.message.content === text)!;
    const lastStep = events.filter((e): e is Extract<AgentEvent, { type: "turn.step" }> => e.type === "turn.step" && e.turnId === turnId).at(-1)!;
    expect(seqOf("late").seq).toBeGreaterThan(lastStep.seenSeq);
    expect(seqOf("late").turnId).toBe(turnId);
    expect(seqOf("while sealing").seq).toBeGreaterThan(lastStep.seenSeq);
    expect(model.prompts.flatMap(promptTexts)).not.toContain("user:late");
    expect(view(await storage.read())).toEqual(["turn.start", "hi", "assistant", "late", "while sealing", "turn.done"]);
  });

  it("AG-58 a slow listener delays the next step", async () => {
    const release = deferred();
    const model = scriptedModel([{ calls: [{ id: "c1", name: "echo" }] }, { text: "done" }]);
    const agent = createAgent({ model, tools: { echo: tool({ inputSchema: jsonSchema({ type: "object" }), execute: async () => "e" }) } });
    let stepEvents = 0;
    agent.channel.subscribe("agent", async (event) => {
      if (event.type === "turn.step" && stepEvents++ === 0) await release.promise;
    });
    agent.send(createUserMessage("go"));
    await new Promise((r) => setTimeout(r, 100));
    expect(model.prompts).toHaveLength(1);
    release.resolve();
    await agent.wait();
    expect(model.prompts).toHaveLength(2);
  });
});
