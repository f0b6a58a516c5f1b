// Gateway overheads that sit on every turn: building a large configuration, resolving a reference, and the
// failover model's pass-through of a long stream compared with the plain model.
import type { LanguageModelV4, LanguageModelV4StreamPart, ProviderV4 } from "@ai-sdk/provider";
import { createGateway } from "../src/index.js";
import type { ApiFactory, GatewayConfig } from "../src/index.js";

const PARTS = 10_000;

function longStream(): ReadableStream<LanguageModelV4StreamPart> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent === 0) controller.enqueue({ type: "stream-start", warnings: [] });
      if (sent < PARTS) controller.enqueue({ type: "text-delta", id: "t", delta: "x" });
      else {
        controller.enqueue({
          type: "finish",
          usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
          finishReason: { unified: "stop", raw: "stop" },
        });
        controller.close();
      }
      sent++;
    },
  });
}

const api: ApiFactory = ({ id }): ProviderV4 => ({
  specificationVersion: "v4",
  languageModel: (modelId): LanguageModelV4 => ({
    specificationVersion: "v4",
    provider: id,
    modelId,
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("not used")),
    doStream: async () => ({ stream: longStream() }),
  }),
  embeddingModel: () => {
    throw new Error("not used");
  },
  imageModel: () => {
    throw new Error("not used");
  },
});

function config(providers: number, models: number): GatewayConfig {
  const result: GatewayConfig = { providers: {}, groups: {} };
  for (let p = 0; p < providers; p++) {
    result.providers![`p${p}`] = { api: "bench", apiKey: "${KEY}", models: Array.from({ length: models }, (_, m) => ({ id: `m${m}`, input: ["text"] })) };
    result.groups![`g${p}`] = { models: [`p${p}:m0`, `p${(p + 1) % providers}:m1`] };
  }
  return result;
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function drain(model: LanguageModelV4): Promise<void> {
  const reader = (await model.doStream({ prompt: [] })).stream.getReader();
  while (!(await reader.read()).done);
}

export default async function bench() {
  const options = { apis: { bench: api }, env: { KEY: "k-bench" } };
  // Each benchmark runs in a fresh process: warm the config validation up first, so the median is the steady state.
  for (let i = 0; i < 20; i++) createGateway({ ...options, config: config(50, 20) });
  const builds: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    createGateway({ ...options, config: config(50, 20) });
    builds.push(performance.now() - started);
  }
  const gateway = createGateway({ ...options, config: config(50, 20) });

  const resolves: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const started = performance.now();
    gateway.languageModel(`p${i % 50}:m${i % 20}`);
    resolves.push(performance.now() - started);
  }

  const plain: number[] = [];
  const wrapped: number[] = [];
  const failover = gateway.profileModel("g0");
  for (let i = 0; i < 15; i++) {
    let started = performance.now();
    await drain(gateway.languageModel("p0:m0"));
    plain.push(performance.now() - started);
    started = performance.now();
    await drain(failover);
    wrapped.push(performance.now() - started);
  }
  const overheadPerPart = ((median(wrapped) - median(plain)) * 1000) / PARTS;

  return [
    { measure: "createGateway: 50 providers × 20 models, 50 groups (median)", value: Number(median(builds).toFixed(2)), unit: "ms" },
    { measure: "languageModel(ref) resolution (median)", value: Number((median(resolves) * 1000).toFixed(1)), unit: "µs" },
    { measure: `plain model stream of ${PARTS} parts (median)`, value: Number(median(plain).toFixed(2)), unit: "ms" },
    { measure: `failover model stream of ${PARTS} parts (median)`, value: Number(median(wrapped).toFixed(2)), unit: "ms" },
    { measure: "failover pass-through overhead per stream part", value: Number(overheadPerPart.toFixed(3)), unit: "µs" },
  ];
}
