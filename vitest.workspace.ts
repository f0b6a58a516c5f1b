// Vitest 4 has no workspace file of its own; vitest.config.ts passes this list as `test.projects`.
export default [
  "packages/core",
  "packages/gateway",
  "packages/koishi-plugin-ishiki",
  "packages/workspace",
  "packages/mcp-client",
  "packages/onebot-actions",
  "packages/memory",
  "examples/extensions",
];
