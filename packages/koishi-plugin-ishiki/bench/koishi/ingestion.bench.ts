// Koishi ingestion benchmarks (spec 08): the per-message cost of routing (claims of 50 profiles) and the
// duplicate-delivery check, and the start-up claim conflict check of 200 profiles.
import { performance } from "node:perf_hooks";
import { DeliveryDedup } from "../../src/koishi/delivery-dedup.js";
import { claimsChannel, overlappingAccount, parseClaims, type AccountClaim } from "../../src/profile/index.js";

interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[values.length >> 1];
}

/** Microseconds per call, the median of seven rounds: one round alone swings with GC and JIT timing. */
function perOp(count: number, run: (index: number) => void): number {
  for (let index = 0; index < 1000; index += 1) run(index);
  const rounds: number[] = [];
  for (let round = 0; round < 7; round += 1) {
    const start = performance.now();
    for (let index = 0; index < count; index += 1) run(index);
    rounds.push(((performance.now() - start) * 1000) / count);
  }
  return median(rounds);
}

export default async function bench(): Promise<Row[]> {
  const profiles: AccountClaim[][] = [];
  for (let index = 0; index < 200; index += 1) profiles.push(parseClaims({ [`onebot:${index}`]: ["*", `!private:${index}`], [`sandbox:${index}:*`]: [`g${index}*`] }));
  const routing = perOp(100_000, (index) => {
    const account = String(index % 60);
    profiles.slice(0, 50).find((claims) => claimsChannel(claims, "onebot", account, `group-${index}`));
  });
  const dedup = new DeliveryDedup();
  const admit = perOp(200_000, (index) => void dedup.admit("onebot", "1", "c", `m${index}`));
  const conflictRounds: number[] = [];
  for (let round = 0; round < 7; round += 1) {
    const start = performance.now();
    const loaded: AccountClaim[][] = [];
    for (const claims of profiles) if (!loaded.some((other) => overlappingAccount(other, claims) !== undefined)) loaded.push(claims);
    conflictRounds.push(performance.now() - start);
  }
  const conflicts = median(conflictRounds);
  return [
    { measure: "route one message over 50 profiles (median of 7 rounds)", value: Number(routing.toFixed(2)), unit: "µs", target: "< 50 µs" },
    { measure: "duplicate-delivery check, LRU of 10k (median of 7 rounds)", value: Number(admit.toFixed(2)), unit: "µs", target: "< 50 µs" },
    { measure: "claim conflict check of 200 profiles at start (median of 7)", value: Number(conflicts.toFixed(1)), unit: "ms", target: "< 100 ms" },
  ];
}
