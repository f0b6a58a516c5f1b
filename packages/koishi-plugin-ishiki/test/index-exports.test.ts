import * as ai from "ai";
import { MockLanguageModelV4 as SdkMock } from "ai/test";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as ishiki from "../src/index.js";

describe("package index (OV-14)", () => {
  it("OV-14 re-exports the AI SDK so extensions see one SDK", () => {
    expect(ishiki.tool).toBe(ai.tool);
    expect(ishiki.jsonSchema).toBe(ai.jsonSchema);
    expect(ishiki.wrapLanguageModel).toBe(ai.wrapLanguageModel);
    expect(ishiki.simulateReadableStream).toBe(ai.simulateReadableStream);
    expect(ishiki.MockLanguageModelV4).toBe(SdkMock);
  });

  it("OV-14 names exported by several SDK packages are ai's", () => {
    expect(ishiki.InvalidArgumentError).toBe(ai.InvalidArgumentError);
    expectTypeOf<ishiki.JSONValue>().toEqualTypeOf<ai.JSONValue>();
    expectTypeOf<ishiki.ProviderReference>().toEqualTypeOf<ai.ProviderReference>();
    expectTypeOf<ishiki.LanguageModelV4Middleware>().not.toBeAny();
    expectTypeOf<ishiki.LanguageModelV4CallOptions>().not.toBeAny();
    expectTypeOf<ishiki.ToolSet>().toEqualTypeOf<ai.ToolSet>();
  });

  it("OV-16 the default export is the Koishi plugin providing the ishiki service", () => {
    expect(ishiki.default).toBe(ishiki.IshikiService);
    expect(typeof ishiki.IshikiService.Config).toBe("function");
  });
});

describe("package index (OV-15, gateway)", () => {
  it("OV-14 createGateway is Ishiki's, not the AI SDK's", async () => {
    const { createGateway: sdkCreateGateway } = await import("ai");
    const { createGateway: ishikiCreateGateway } = await import("@yesimagent/gateway");
    expect(ishiki.createGateway).toBe(ishikiCreateGateway);
    expect(ishiki.createGateway).not.toBe(sdkCreateGateway);
    expectTypeOf<ishiki.Gateway>().toHaveProperty("reconfigure");
  });
});

describe("package index (OV-14, OV-15, agent)", () => {
  it("OV-14 Agent is Ishiki's handle, not the AI SDK's Agent interface", async () => {
    const { createAgent } = await import("@yesimagent/core");
    expect(ishiki.createAgent).toBe(createAgent);
    expectTypeOf<ishiki.Agent>().toEqualTypeOf<import("@yesimagent/core").Agent>();
    expectTypeOf<ishiki.Agent>().toHaveProperty("continue");
    expectTypeOf<ishiki.Agent>().not.toEqualTypeOf<ai.Agent>();
  });
});
