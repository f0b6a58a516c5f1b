import { describe, expect, it } from "vitest";
import { mockApi } from "./gateway-mock-api.js";
import type { Call } from "./gateway-mock-api.js";
import { createGateway } from "../src/create-gateway.js";
import { GatewayError } from "../src/errors.js";
import type { GatewayConfig } from "../src/config.js";

const BUILT_INS = "openai-completions, openai-responses, anthropic-messages, google-generative-ai";

function thrown(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

describe("gateway resolution and configuration", () => {
  it("GW-25 reference and lookup errors carry the exact messages", () => {
    const gateway = createGateway({
      apis: { mock: mockApi() },
      config: {
        providers: {
          relay: { api: "mock", models: [{ id: "chat" }, { id: "emb", type: "embedding" }] },
          claude: { api: "anthropic-messages", apiKey: "k-1234" },
          local: { api: "openai-completions", baseUrl: "http://127.0.0.1:9" },
        },
        groups: { main: { models: ["relay:chat"] } },
      },
    });
    const cases: Array<[() => unknown, string]> = [
      [() => gateway.languageModel("relay"), `"relay" is not a "provider:model" reference`],
      [() => gateway.languageModel(":chat"), `":chat" is not a "provider:model" reference`],
      [() => gateway.languageModel("relay:"), `"relay:" is not a "provider:model" reference`],
      [() => gateway.languageModel("nope:chat"), `Unknown provider "nope" (from "nope:chat"); registered: relay, claude, local`],
      [() => gateway.languageModel("relay:zzz"), `Provider "relay" does not declare "zzz"`],
      [() => gateway.languageModel("relay:emb"), `Model "emb" is declared as embedding, not language`],
      [() => gateway.embeddingModel("relay:chat"), `Model "chat" is declared as language, not embedding`],
      [() => gateway.embeddingModel("claude:anything"), `Provider "claude" serves no embeddingModel`],
      [() => gateway.speechModel("local:tts"), `Provider "local" serves no speechModel`],
      [() => gateway.group("side"), `Unknown model group "side" (declared: main)`],
      [() => gateway.provider("nope"), `Unknown provider "nope" (from "nope"); registered: relay, claude, local`],
    ];
    for (const [action, message] of cases) {
      const error = thrown(action);
      expect(error).toBeInstanceOf(GatewayError);
      expect(error.name).toBe("GatewayError");
      expect(error.message).toBe(message);
    }
  });

  it("GW-25 GW-4 a broken provider is reported and left out; the others stay usable", () => {
    const gateway = createGateway({
      apis: {
        mock: mockApi(),
        explode: () => {
          throw new TypeError("kaput");
        },
      },
      config: {
        providers: {
          good: { api: "mock" },
          odd: { api: "nonesuch" },
          boom: { api: "explode" },
          typo: { api: "mock", baseURL: "x" } as never,
          shape: { api: "mock", models: [{ id: "m", input: ["smell"] }] } as never,
        },
      },
    });
    expect(gateway.errors().map((error) => error.message)).toEqual([
      `providers.odd: unknown api "nonesuch" (registered: ${BUILT_INS}, mock, explode)`,
      `providers.boom (api: explode) could not be built: TypeError: kaput`,
      expect.stringMatching(/^providers\.typo: Unrecognized key: "baseURL"/),
      expect.stringMatching(/^providers\.shape\.models\[0\]\.input\[0\]: Invalid option/),
    ]);
    expect(gateway.errors()[1].cause).toBeInstanceOf(TypeError);
    expect(thrown(() => gateway.languageModel("boom:m")).message).toBe("providers.boom (api: explode) could not be built: TypeError: kaput");
    expect(gateway.languageModel("good:m").modelId).toBe("m");
    expect(gateway.providers()).toEqual([{ id: "good", api: "mock" }]);
  });

  it("GW-25 QA-12 build errors are logged at warn and never carry an expanded secret", () => {
    const lines: string[] = [];
    const gateway = createGateway({
      env: { LEAKY: "sk-very-secret-9" },
      logger: { debug() {}, info() {}, warn: (m) => lines.push(m), error() {} },
      apis: {
        leaky: ({ apiKey }) => {
          throw new Error(`key ${apiKey} rejected`);
        },
      },
      config: { providers: { l: { api: "leaky", apiKey: "${LEAKY}" }, u: { api: "leaky", apiKey: "${UNSET_VAR}" } } },
    });
    expect(gateway.errors()[0].message).toBe("providers.l (api: leaky) could not be built: Error: key <redacted> rejected");
    expect(lines).toEqual([
      "providers.l (api: leaky) could not be built: Error: key <redacted> rejected; profiles using it fail activation",
      `providers.u.apiKey: environment variable "UNSET_VAR" is not set; profiles using it fail activation`,
    ]);
  });

  it("GW-7 GW-13 a value Koishi's ${{ env.NAME }} left without a value is named as such, not only as missing", () => {
    // The loader evaluates a whole-value `${{ env.UNSET }}` to undefined and keeps the key; YAML alone cannot.
    const gateway = createGateway({ config: { providers: { relay: { api: "openai-completions", baseUrl: undefined } } } });
    expect(gateway.errors().map((error) => error.message)).toEqual([
      'providers.relay: baseUrl is required for api "openai-completions"; baseUrl is written but has no value: an expression such as ${{ env.NAME }} read an unset environment variable (write ${NAME} and the error names it)',
    ]);
  });

  it("GW-7 apiKey is required for every built-in api but openai-completions", () => {
    const gateway = createGateway({
      config: {
        providers: {
          a: { api: "openai-responses" },
          b: { api: "anthropic-messages", apiKey: "" },
          c: { api: "google-generative-ai" },
          d: { api: "openai-completions", baseUrl: "http://127.0.0.1:9" },
          e: { api: "anthropic-messages", settings: { authToken: "t-123" } },
          f: { api: "openai-completions" },
        },
      },
    });
    expect(gateway.errors().map((error) => error.message)).toEqual([
      `providers.a: apiKey is required for api "openai-responses"`,
      `providers.b: apiKey is required for api "anthropic-messages"; apiKey is empty: an environment variable behind it may be unset (write \${NAME} and the error names it)`,
      `providers.c: apiKey is required for api "google-generative-ai"`,
      `providers.f: baseUrl is required for api "openai-completions"`,
    ]);
    expect(gateway.providers().map((provider) => provider.id)).toEqual(["d", "e"]);
  });

  it("GW-13 ${ENV} expands in apiKey, baseUrl and header values only; unset or empty names the path", () => {
    const calls: string[] = [];
    const gateway = createGateway({
      env: { KEY: "secret-key", URL: "http://host", EMPTY: "" },
      apis: {
        probe: (options) => {
          calls.push(JSON.stringify(options));
          return mockApi()(options);
        },
      },
      config: {
        providers: {
          ok: { api: "probe", apiKey: "Bearer-${KEY}", baseUrl: "${URL}/v1", headers: { "x-a": "${KEY}" }, settings: { note: "${KEY}" } },
          header: { api: "probe", headers: { "x-team": "${TEAM_ID}" } },
          key: { api: "probe", apiKey: "${EMPTY}" },
          url: { api: "probe", baseUrl: "${MISSING_URL}" },
        },
      },
    });
    expect(JSON.parse(calls[0])).toMatchObject({
      id: "ok",
      apiKey: "Bearer-secret-key",
      baseUrl: "http://host/v1",
      headers: { "x-a": "secret-key" },
      settings: { note: "${KEY}" },
    });
    expect(gateway.errors().map((error) => error.message)).toEqual([
      `providers.header.headers.x-team: environment variable "TEAM_ID" is not set`,
      `providers.key.apiKey: environment variable "EMPTY" is not set`,
      `providers.url.baseUrl: environment variable "MISSING_URL" is not set`,
    ]);
  });

  it("GW-2 an id defined in two sources is an error naming both and is left out; other entries stay", () => {
    const gateway = createGateway({
      apis: { mock: mockApi() },
      config: [
        { name: "koishi.yml", config: { providers: { relay: { api: "mock" }, a: { api: "mock" } }, groups: { main: { models: ["a:x"] } } } },
        { name: "data/ishiki/models.yaml", config: { providers: { relay: { api: "mock" }, b: { api: "mock" } }, groups: { main: { models: ["b:x"] } } } },
        { name: "missing file", config: undefined },
      ],
    });
    expect(gateway.errors().map((error) => error.message)).toEqual([
      "providers.relay: defined in koishi.yml and in data/ishiki/models.yaml; keep one of them",
      "groups.main: defined in koishi.yml and in data/ishiki/models.yaml; keep one of them",
    ]);
    expect(thrown(() => gateway.languageModel("relay:x")).message).toMatch(/^providers\.relay: defined in koishi\.yml/);
    expect(thrown(() => gateway.group("main")).message).toMatch(/^groups\.main: defined in koishi\.yml/);
    expect(gateway.providers().map((provider) => provider.id)).toEqual(["a", "b"]);
  });

  it("GW-9 GW-10 GW-11 declared fields form the metadata; a repeated id keeps its place and takes the last values", () => {
    const gateway = createGateway({
      apis: { mock: mockApi() },
      config: {
        providers: {
          p: {
            api: "mock",
            models: [
              { id: "vision", input: ["text"] },
              { id: "emb", type: "embedding", dimensions: 1536 },
              { id: "vision", input: ["text", "image"], toolCall: true, contextWindow: 128000, thinking: { mode: "effort", efforts: ["low", "high"] } },
            ],
          },
          open: { api: "mock" },
        },
      },
    });
    expect(gateway.models().map((entry) => entry.ref)).toEqual(["p:vision", "p:emb"]);
    expect(gateway.models("embedding")).toEqual([{ ref: "p:emb", provider: "p", id: "emb", type: "embedding", metadata: { dimensions: 1536 } }]);
    expect(gateway.model("p:vision:high")).toEqual({
      ref: "p:vision",
      provider: "p",
      id: "vision",
      type: "language",
      metadata: { input: ["text", "image"], toolCall: true, contextWindow: 128000, thinking: { mode: "effort", efforts: ["low", "high"] } },
    });
    // Capabilities are never inferred from names: an undeclared model has none.
    expect(gateway.model("open:gpt-4o-vision")).toBeUndefined();
    expect(gateway.languageModel("open:gpt-4o-vision").modelId).toBe("gpt-4o-vision");
  });

  it("GW-12 references split at the first colon; levels pass as the reasoning option and obey thinking.efforts", async () => {
    const calls: Call[] = [];
    const gateway = createGateway({
      apis: { mock: mockApi({}, calls) },
      config: {
        providers: {
          p: { api: "mock", models: [{ id: "think", thinking: { efforts: ["low", "high"] } }, { id: "qwen:max" }, { id: "plain" }] },
          ollama: { api: "mock" },
        },
      },
    });
    const call = async (ref: string) => {
      await gateway.languageModel(ref).doStream({ prompt: [] });
      return calls.at(-1)!;
    };
    expect(await call("p:think:high")).toMatchObject({ ref: "p:think", options: { reasoning: "high" } });
    expect((await call("p:plain")).options.reasoning).toBeUndefined();
    expect(await call("p:qwen:max")).toMatchObject({ ref: "p:qwen:max" });
    expect((await call("p:qwen:max")).options.reasoning).toBeUndefined();
    expect(await call("ollama:qwen:7b")).toMatchObject({ ref: "ollama:qwen:7b" });
    expect(await call("ollama:qwen:7b:minimal")).toMatchObject({ ref: "ollama:qwen:7b", options: { reasoning: "minimal" } });
    expect(thrown(() => gateway.languageModel("p:think:max")).message).toBe(`"p:think:max": level "max" is not declared; thinking.efforts allows low, high`);
  });

  it("GW-8 defineApi registers a dialect for the next reconfigure; a taken name throws; the disposer removes it", () => {
    const config: GatewayConfig = { providers: { demo: { api: "demo" } } };
    const gateway = createGateway({ config });
    expect(gateway.errors()[0].message).toMatch(/^providers\.demo: unknown api "demo"/);
    const dispose = gateway.defineApi("demo", mockApi());
    expect(gateway.apis()).toEqual([...BUILT_INS.split(", "), "demo"]);
    expect(() => gateway.languageModel("demo:m")).toThrow(/unknown api "demo"/);
    gateway.reconfigure(config);
    expect(gateway.languageModel("demo:m").provider).toBe("demo.mock");
    expect(thrown(() => gateway.defineApi("demo", mockApi())).message).toBe(`defineApi: api "demo" is already registered`);
    expect(() => gateway.defineApi("anthropic-messages", mockApi())).toThrow(GatewayError);
    dispose();
    expect(gateway.apis()).not.toContain("demo");
    expect(gateway.languageModel("demo:m").modelId).toBe("m");
    expect(() => gateway.reconfigure(config)).toThrow(/unknown api "demo"/);
  });

  it("GW-26 reconfigure swaps only on success and keeps breakers of references present in both", () => {
    const gateway = createGateway({
      apis: { mock: mockApi() },
      config: { providers: { a: { api: "mock" }, b: { api: "mock" } }, groups: { main: { models: ["a:x", "b:x"], circuitBreaker: { failureThreshold: 1 } } } },
    });
    for (const candidate of gateway.group("main").candidates()) candidate.failure();
    expect(() =>
      gateway.reconfigure({ providers: { a: { api: "mock" }, c: { api: "openai-responses" } }, groups: { main: { models: ["a:x"] } } }),
    ).toThrow(/^models: configuration rejected, nothing changed: providers\.c: apiKey is required/);
    expect(gateway.providers().map((provider) => provider.id)).toEqual(["a", "b"]);

    gateway.reconfigure({ providers: { a: { api: "mock" }, c: { api: "mock" } }, groups: { main: { models: ["a:x", "c:x"] } } });
    expect(gateway.providers().map((provider) => provider.id)).toEqual(["a", "c"]);
    expect(gateway.group("main").status()).toEqual({ "a:x": { state: "closed", failures: 1 }, "c:x": { state: "closed", failures: 0 } });
  });

  it("GW-27 listings and raw providers", () => {
    const gateway = createGateway({
      apis: { mock: mockApi() },
      config: { providers: { a: { api: "mock", models: [{ id: "x" }] } }, groups: { g: { strategy: "round-robin", models: ["a:x"] } } },
    });
    expect(gateway.provider("a").languageModel("x").provider).toBe("a.mock");
    expect(gateway.groups().map((group) => [group.name, group.strategy, group.members])).toEqual([["g", "round-robin", ["a:x"]]]);
    expect(gateway.errors()).toEqual([]);
  });
});
