export { DailyBudget, utcDayStart, type BudgetStatus } from "./daily-budget.js";
export { meterGateway, meterLanguageModel, type CallSink, type ModelCall } from "./metered-model.js";
export { costOf, pricesOf } from "./prices.js";
export { entryCalls, profileStreams, readUsage, TURN_PURPOSE, type EntryCall, type StreamFile, type UsageItem } from "./usage-facts.js";
export { UsageRecorder } from "./usage-recorder.js";
export { summariseUsage, type UsageLine, type UsageReport } from "./usage-report.js";
export { addCounts, countsOf, NO_TOKENS, storedUsage, type TokenCounts } from "./usage-sum.js";
export { addressesBot, gateWakes } from "./wake-gate.js";
