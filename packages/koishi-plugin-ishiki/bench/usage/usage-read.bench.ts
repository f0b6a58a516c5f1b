// `ishiki.usage` reads usage back from the fact streams on disk (issue 22): a channel of 100,000 facts (messages,
// steps with usage, tool results, side requests) is read and summed, cold from the file each time, as the
// command and a budget's seed at activation do.
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAssistantMessage, createCustomMessage, createEntry, createToolMessage, serializeEntry } from "@yesimagent/core";
import { profileStreams, readUsage, summariseUsage } from "../../src/usage/index.js";
import "../../src/types/index.js";

const FACTS = 100_000;
const usage = { inputTokens: 1200, inputTokenDetails: { noCacheTokens: 200, cacheReadTokens: 1000, cacheWriteTokens: 0 }, outputTokens: 40, outputTokenDetails: { textTokens: 40, reasoningTokens: 0 }, totalTokens: 1240 };

async function writeStream(path: string): Promise<void> {
  const out = createWriteStream(path);
  for (let index = 0; index < FACTS; index += 1) {
    const kind = index % 4;
    const entry =
      kind === 0
        ? createEntry("message", createCustomMessage("ishiki.message.created", { timestamp: Date.now(), platform: "bench", selfId: "bot", channelId: "c1", isDirect: false, messageId: `m${index}`, content: "a message of ordinary length in a busy group chat, with some words in it", user: { id: "u1", name: "Alice" } }))
        : kind === 1
          ? createEntry("message", { ...createAssistantMessage([{ type: "tool-call", toolCallId: `c${index}`, toolName: "send_message", input: { messages: ["an answer"] } }], { usage }), model: "relay:m" })
          : kind === 2
            ? createEntry("message", createToolMessage([{ type: "tool-result", toolCallId: `c${index}`, toolName: "send_message", output: { type: "json", value: { ok: true, ids: ["1"] } } }]))
            : createEntry("ishiki.usage", { purpose: "wakeup:judge", model: "judge:j", usage });
    if (!out.write(serializeEntry(entry) + "\n")) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

export default async function run() {
  const root = await mkdtemp(join(tmpdir(), "ishiki-usage-bench-"));
  const home = join(root, "runtimes", "bench%3Abot", "c1");
  await mkdir(home, { recursive: true });
  await writeStream(join(home, "events.jsonl"));
  const bytes = (await stat(join(home, "events.jsonl"))).size;
  const times: number[] = [];
  let calls = 0;
  for (let round = 0; round < 5; round += 1) {
    const started = performance.now();
    const items = [];
    for (const file of await profileStreams(root)) items.push(...(await readUsage(file, "p", 0)));
    calls = summariseUsage(items, () => ({ input: 1, output: 2 })).total.calls;
    times.push(performance.now() - started);
  }
  await rm(root, { recursive: true, force: true });
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  return [
    { measure: `usage: read and sum ${FACTS.toLocaleString("en-US")} facts (${(bytes / 1024 / 1024).toFixed(1)} MiB, ${calls} calls), median of 5`, value: Math.round(median), unit: "ms", target: "< 1500 ms", pass: median < 1500 },
  ];
}
