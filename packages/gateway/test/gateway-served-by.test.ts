import { APICallError } from "@ai-sdk/provider";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { mockApi } from "./gateway-mock-api.js";
import { createGateway } from "../src/create-gateway.js";
import { servedBy } from "../src/served-by.js";
import { silentLogger } from "../src/logger.js";

const unavailable = () => new APICallError({ message: "status 503", url: "http://x", requestBodyValues: {}, statusCode: 503, isRetryable: true });

describe("the candidate that served a call (issue 22: usage is priced per declared model)", () => {
  const gateway = createGateway({
    logger: silentLogger,
    apis: { mock: mockApi({ "p:a": () => Promise.reject(unavailable()) }) },
    config: { providers: { p: { api: "mock", models: [{ id: "a" }, { id: "b", prices: { input: 1, output: 2, cacheRead: 0.5 } }] } }, groups: { g: { models: ["p:a", "p:b"] } } },
  });

  it("a failover model names the candidate on the finish part of a stream", async () => {
    const { stream } = await gateway.profileModel("g", { failover: { backoffMs: 0 } }).doStream({ prompt: [] });
    const parts: LanguageModelV4StreamPart[] = [];
    for await (const part of stream as unknown as AsyncIterable<LanguageModelV4StreamPart>) parts.push(part);
    const finish = parts.find((part) => part.type === "finish");
    expect(finish?.type === "finish" ? servedBy(finish.providerMetadata) : undefined).toBe("p:b");
  });

  it("and on a generate result (the mock's p:a fails only its streams, so it answers here)", async () => {
    const result = await gateway.profileModel("g", { failover: { backoffMs: 0 } }).doGenerate({ prompt: [] });
    expect(servedBy(result.providerMetadata)).toBe("p:a");
  });

  it("model entries declare prices; negative prices and unknown keys are refused", () => {
    expect(gateway.model("p:b")?.metadata.prices).toEqual({ input: 1, output: 2, cacheRead: 0.5 });
    const broken = createGateway({ logger: silentLogger, apis: { mock: mockApi() }, config: { providers: { q: { api: "mock", models: [{ id: "x", prices: { input: -1 } }] }, r: { api: "mock", models: [{ id: "y", prices: { inputs: 1 } as never }] } } } });
    expect(broken.errors().map((error) => error.message)).toEqual([expect.stringMatching(/^providers\.q\.models\[0\]\.prices\.input: /), expect.stringMatching(/^providers\.r\.models\[0\]\.prices: /)]);
  });
});
