import { describe, expect, expectTypeOf, it } from "vitest";
import * as ai from "ai";
import * as ishiki from "../src/index.js";
import type { Agent as CoreAgent } from "@yesimagent/core";

describe("public names of the extension API (XA-13, OV-13)", () => {
  it("XA-13 the building blocks and the extension and engine bases come from koishi-plugin-ishiki", () => {
    expect(ishiki.tool).toBe(ai.tool);
    expect(ishiki.jsonSchema).toBe(ai.jsonSchema);
    for (const name of ["Extension", "ContextEngine", "WakeupEngine", "ToolcallEngine", "ToolcallEngineInstance", "ResourceError", "FileScheme", "ToolConflictError"] as const) {
      expect(typeof ishiki[name]).toBe("function");
    }
    expectTypeOf<ishiki.ToolCallers>().toEqualTypeOf<Record<string, readonly string[]>>();
    expectTypeOf<ishiki.Agent>().toEqualTypeOf<CoreAgent>();
    expectTypeOf<ishiki.ExtensionHost["runtime"]>().toEqualTypeOf<ishiki.AgentRuntime>();
    expectTypeOf<ishiki.RuntimeDomain>().toEqualTypeOf<ishiki.ChannelDomain | ishiki.CrossDomain>();
    expectTypeOf<ishiki.IshikiEvent["type"]>().toEqualTypeOf<"ishiki.message.created" | "ishiki.message.deleted" | "ishiki.attachment" | "ishiki.tools.catalog">();
  });

  it("EN-38 ToolcallEngineInstance is constructible without parameters and wrap is public", () => {
    class Plain extends ishiki.ToolcallEngineInstance {
      protected middleware() {
        return undefined;
      }
    }
    const model = new ishiki.MockLanguageModelV4();
    expect(new Plain().wrap(model)).toBe(model);
  });
});
