import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readModelsFile } from "./config-file.js";
import { createGateway } from "./create-gateway.js";
import { GatewayError } from "./errors.js";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function temp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "gateway-config-"));
  dirs.push(dir);
  return dir;
}

describe("models.yaml", () => {
  it("GW-1 a missing file is no configuration and is not created", async () => {
    const path = join(await temp(), "models.yaml");
    expect(readModelsFile(path)).toBeUndefined();
    expect(existsSync(path)).toBe(false);
  });

  it("GW-1 invalid YAML fails with the file's path", async () => {
    const path = join(await temp(), "models.yaml");
    await writeFile(path, "providers: [unclosed");
    let error: unknown;
    try {
      readModelsFile(path);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as Error).message).toMatch(new RegExp(`^${path}: invalid YAML: `));
  });

  it("GW-3 GW-1 the spec's example builds from models.yaml merged with the plugin key", async () => {
    const path = join(await temp(), "models.yaml");
    await writeFile(
      path,
      [
        "providers:",
        "  relay:",
        "    api: openai-completions",
        "    baseUrl: ${ISHIKI_BASE_URL}",
        "    apiKey: ${ISHIKI_API_KEY}",
        "    models:",
        "      - { id: gpt-4o-mini, input: [text, image], contextWindow: 128000 }",
        "groups:",
        "  main: { strategy: failover, models: [relay:gpt-4o-mini, backup:qwen-plus] }",
      ].join("\n"),
    );
    const gateway = createGateway({
      env: { ISHIKI_BASE_URL: "http://127.0.0.1:9/v1", ISHIKI_API_KEY: "sk-example" },
      config: [
        { name: "koishi.yml", config: { providers: { backup: { api: "openai-completions", baseUrl: "http://127.0.0.1:9", models: [{ id: "qwen-plus" }] } } } },
        { name: path, config: readModelsFile(path) },
      ],
    });
    expect(gateway.errors()).toEqual([]);
    expect(gateway.group("main").members).toEqual(["relay:gpt-4o-mini", "backup:qwen-plus"]);
    expect(gateway.model("relay:gpt-4o-mini")?.metadata).toEqual({ input: ["text", "image"], contextWindow: 128000 });
    expect(gateway.languageModel("relay:gpt-4o-mini").provider).toBe("relay.chat");
  });
});
