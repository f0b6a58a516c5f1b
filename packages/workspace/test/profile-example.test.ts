import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Context, Logger } from "koishi";
import IshikiService from "koishi-plugin-ishiki";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { WorkspaceExtension } from "../src/index.js";
import { until } from "./support.js";

// The koishi.yml example of spec 08 KP-5, as a bot author would paste it.
const EXAMPLE = `
plugins:
  ishiki:
    models: { providers: { relay: { api: openai-completions, baseUrl: "\${ISHIKI_BASE_URL}", models: [{ id: qwen-plus }] } } }
    profiles:
      alice:
        model: relay:qwen-plus
        channels: { "onebot:123456": ["*", "!private:10000"] }
        extends: { workspace: {}, mcp-client: { enable: false } }
        wakeup: { engine: standard, standard: { keywords: [alice] } }
`;

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe("the profile example (KP-5)", () => {
  it("KP-5 the spec's koishi.yml example activates with the workspace; the disabled mcp-client is not waited for", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ishiki-example-"));
    const logs: string[] = [];
    const target: Logger.Target = { colors: 0, record: (record) => void logs.push(record.content) };
    Logger.targets.push(target);
    const previous = process.env.ISHIKI_BASE_URL;
    process.env.ISHIKI_BASE_URL = "http://127.0.0.1:9/v1";
    const app = new Context();
    cleanup = async () => {
      await app.stop();
      Logger.targets.splice(Logger.targets.indexOf(target), 1);
      if (previous === undefined) delete process.env.ISHIKI_BASE_URL;
      else process.env.ISHIKI_BASE_URL = previous;
      await rm(dir, { recursive: true, force: true });
    };
    const config = (parse(EXAMPLE) as { plugins: { ishiki: Record<string, unknown> } }).plugins.ishiki;
    app.plugin(IshikiService, { ...config, dataPath: dir });
    app.plugin(WorkspaceExtension, { logLevel: 2 });
    await app.start();
    await until(() => app.ishiki.profile("alice")?.status === "active");
    expect(app.ishiki.gateway.model("relay:qwen-plus")).toBeDefined();
    expect(logs.filter((line) => line.includes("mcp-client"))).toEqual([]);
    expect(logs.filter((line) => line.includes("[alice]") && /failed|skipped|waiting/.test(line))).toEqual([]);
  });
});
