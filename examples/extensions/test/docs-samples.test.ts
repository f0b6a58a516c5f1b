// Issue 20: every TypeScript sample in docs/*.md compiles against the real packages, and every `send_message` call
// shown in a docs log line takes the input the tool's schema accepts. A sample is type-checked as a module of its
// own, as if it were a file in examples/extensions/src (so `./clock.js` is the sample file beside it, and
// `koishi-plugin-ishiki` resolves to the workspace package's sources). An HTML comment `<!-- ts-prelude ... -->`
// right before a fence gives a fragment the declarations it assumes, without showing them to readers.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sendMessageInputSchema } from "../../../packages/koishi-plugin-ishiki/src/tools/send-message-schema.js";

const here = dirname(fileURLToPath(import.meta.url));
const project = join(here, "..");
const docs = join(project, "../../docs");

interface Sample {
  /** `<doc>.md:<line>` of the fence. */
  where: string;
  file: string;
  text: string;
}

const FENCE = /^(?:<!-- ts-prelude\n([\s\S]*?)-->\n)?```(?:ts|typescript)\n([\s\S]*?)^```$/gm;

function samples(): Sample[] {
  const out: Sample[] = [];
  for (const name of readdirSync(docs).filter((file) => file.endsWith(".md")).sort()) {
    const markdown = readFileSync(join(docs, name), "utf8");
    for (const match of markdown.matchAll(FENCE)) {
      const line = markdown.slice(0, match.index).split("\n").length + (match[1] ? match[1].split("\n").length : 0);
      const prelude = match[1] ?? "";
      // A sample without imports or exports is a script to TypeScript; the prelude's `export {}` keeps each one a module.
      out.push({ where: `${name}:${line}`, file: join(project, "src", `__docs_${name.replace(/\W/g, "_")}_${line}.ts`), text: `${prelude}export {};\n${match[2]}` });
    }
  }
  return out;
}

function typeErrors(all: readonly Sample[]): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(join(project, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const virtual = new Map(all.map((sample) => [sample.file, sample.text]));
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, onError) => {
    const text = virtual.get(file);
    return text === undefined ? getSourceFile(file, language, onError) : ts.createSourceFile(file, text, language);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => virtual.has(file) || fileExists(file);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => virtual.get(file) ?? readFile(file);
  const program = ts.createProgram({ rootNames: [...virtual.keys()], options: config.options, host });
  const errors = new Map<string, string[]>();
  for (const sample of all) {
    const source = program.getSourceFile(sample.file)!;
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    errors.set(
      sample.where,
      diagnostics.map((diagnostic) => {
        const { line } = diagnostic.start === undefined ? { line: -1 } : source.getLineAndCharacterOfPosition(diagnostic.start);
        return `line ${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
      }),
    );
  }
  return errors;
}

describe("docs samples (issue 20)", () => {
  it("every ts block in docs/*.md type-checks", () => {
    const all = samples();
    expect(all.length).toBeGreaterThan(15);
    const errors = typeErrors(all);
    expect(Object.fromEntries([...errors].filter(([, list]) => list.length > 0))).toEqual({});
  }, 120_000);

  it("every send_message call in a docs log line has the input the tool accepts", () => {
    let seen = 0;
    for (const name of readdirSync(docs).filter((file) => file.endsWith(".md"))) {
      for (const line of readFileSync(join(docs, name), "utf8").split("\n")) {
        if (!line.startsWith("{") || !line.includes('"toolName":"send_message"') || !line.includes('"type":"tool-call"')) continue;
        const entry = JSON.parse(line) as { data: { content: Array<{ type: string; toolName?: string; input?: unknown }> } };
        for (const part of entry.data.content.filter((item) => item.type === "tool-call" && item.toolName === "send_message")) {
          seen += 1;
          expect(sendMessageInputSchema.safeParse(part.input).success, `${name}: ${JSON.stringify(part.input)}`).toBe(true);
        }
      }
    }
    expect(seen).toBeGreaterThan(0);
  });
});
