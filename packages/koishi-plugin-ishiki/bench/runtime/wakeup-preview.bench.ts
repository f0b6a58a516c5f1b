// Policy preview (issue 22): replaying a recorded busy week (4,227 messages) of one channel through the
// standard engine and through the judge's rules, on the virtual clock. The owner waits for this in chat.
import { Context, Logger } from "koishi";
import { createEntry, type AgentEntry } from "@yesimagent/core";
import { JudgeWakeupEngine, StandardWakeupEngine } from "../../src/engines/wakeup/index.js";
import type { ExtensionHost } from "../../src/extension/index.js";
import { previewWakeup } from "../../src/runtime/index.js";
import { busyWeek } from "../../test/fixtures/busy-week.js";

interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
  pass?: boolean;
}

export default async function run(): Promise<Row[]> {
  const logger = new Logger("ishiki.bench");
  logger.level = 0;
  const host = { runtimeId: "p/mock:bot/c1", logger, profileModel: () => { throw new Error("no model in the benchmark"); } } as unknown as ExtensionHost;
  const week = busyWeek();
  const entries: AgentEntry[] = week.map((message) => createEntry("message", { id: message.data.messageId, timestamp: message.at, role: "custom", type: "ishiki.message.created", data: message.data }, { timestamp: message.at }) as AgentEntry);
  const ctx = new Context();
  const cases = [
    { name: "standard, keywords and debounce", provider: new StandardWakeupEngine(ctx), section: { engine: "standard", standard: { keywords: ["开会"], debounceMs: 1500, debounceMaxMs: 6000 } } },
    { name: "judge, rules only", provider: new JudgeWakeupEngine(ctx), section: { engine: "judge", judge: {} } },
  ];
  const rows: Row[] = [{ measure: "preview: messages in the recorded week", value: week.length, unit: "messages" }];
  for (const { name, provider, section } of cases) {
    // One warm-up, then the median of five replays.
    const times: number[] = [];
    for (let round = 0; round < 6; round += 1) {
      const started = performance.now();
      await previewWakeup({ provider, section, host, entries, channel: "mock:bot/c1", since: 0, modelCalls: 0 });
      if (round > 0) times.push(performance.now() - started);
    }
    times.sort((left, right) => left - right);
    const median = times[Math.floor(times.length / 2)];
    rows.push({ measure: `preview of a busy week: ${name}`, value: Math.round(median), unit: "ms", target: "< 3000 ms", pass: median < 3000 });
  }
  return rows;
}
