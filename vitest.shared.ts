import { fileURLToPath } from "node:url";
import { defaultServerConditions, type UserConfig } from "vite";

/**
 * Settings every vitest project shares: workspace packages run from source through the `ishiki:source`
 * export condition, and CommonJS default exports resolve as Node resolves them.
 */
export function projectConfig(name: string): UserConfig & { test: Record<string, unknown> } {
  return {
    resolve: { conditions: ["ishiki:source", ...defaultServerConditions] },
    ssr: { resolve: { conditions: ["ishiki:source", ...defaultServerConditions], externalConditions: ["ishiki:source"] } },
    test: {
      name,
      environment: "node",
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      deps: { interopDefault: false },
      setupFiles: [fileURLToPath(new URL("./scripts/vitest-setup.ts", import.meta.url))],
      testTimeout: 20_000,
    },
  };
}
