import { describe, expect, it } from "vitest";
import { codemodeDescription } from "./description.js";
import { DEFAULT_CODEMODE_LIMITS, resolveCodemodeLimits } from "./limits.js";

const tools = [
  { name: "read", description: "Read a resource URL.", inputSchema: { type: "object", properties: { url: { type: "string" } }, required: ["url"] } },
  { name: "send_message", description: "Send a message.", inputSchema: { type: "object", properties: { content: { type: "string" } }, required: ["content"] } },
];

describe("CT-4 CT-6 codemode description", () => {
  it("CT-4 states the rules, the limits and a declaration block in assembly order", () => {
    expect(codemodeDescription({ tools, limits: DEFAULT_CODEMODE_LIMITS })).toMatchInlineSnapshot(`
      "Run a JavaScript program (TypeScript annotations are allowed and stripped) in an isolated sandbox.

      - The program is the body of an async function: use top-level \`await\` and \`return\`.
      - Call tools as \`await tools.<name>(input)\` or \`await tools["<name>"](input)\`; run independent calls in parallel with \`Promise.all\`. Await every call before returning.
      - A tool error is thrown as an Error you can catch; an uncaught error ends the program and you see its message.
      - Each call is an independent program: nothing survives between calls, so return every value you need later.
      - Only the final return value reaches you, as JSON; intermediate data stays inside the program.
      - To show media to yourself, list it in a top-level \`attachments\` array of the return value (MCP image or audio items, \`read\` file results, resources, or resource URLs); media anywhere else stays plain JSON.
      - A tool that wants base64 gets \`data\` from a prior \`tools.read\` result; a tool that accepts resource URLs takes the URL itself.
      - \`console.log/info/warn/error/debug\` output is shown after the result.
      - There is no network, \`fetch\`, \`require\`, module loading, timers, file system or \`process\`: only ECMAScript built-ins, \`tools\` and \`console\`.
      - Limits: 30 s per program, 256 MiB memory, 1000 tool calls, 32 MiB per tool input, 32 MiB per tool output, 32 MiB result, 64 KiB console output.

      Tools callable from programs:
      \`\`\`ts
      /** Read a resource URL. */
      declare function read(input: {
        url: string;
      }): Promise<unknown>;

      /** Send a message. */
      declare function send_message(input: {
        content: string;
      }): Promise<unknown>;
      \`\`\`"
    `);
  });

  it("CT-4 the limits in the text follow the configuration", () => {
    const text = codemodeDescription({ tools, limits: resolveCodemodeLimits({ timeoutMs: 1500, maxToolCalls: 20, memoryLimitBytes: 64 * 1024 * 1024 }) });
    expect(text).toContain("- Limits: 1500 ms per program, 64 MiB memory, 20 tool calls,");
    expect(text.indexOf("declare function read(")).toBeLessThan(text.indexOf("declare function send_message("));
  });

  it("CT-6 with toolsearch the description points to the catalog messages and stays constant", () => {
    const before = codemodeDescription({ tools, limits: DEFAULT_CODEMODE_LIMITS, catalog: "messages" });
    const after = codemodeDescription({ tools: [...tools, { name: "write_file" }], limits: DEFAULT_CODEMODE_LIMITS, catalog: "messages" });
    expect(after).toBe(before);
    expect(before).toContain('"Code mode capability update"');
    expect(before).not.toContain("declare function");
  });
});
