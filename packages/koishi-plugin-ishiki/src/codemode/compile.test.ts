import { describe, expect, it } from "vitest";
import { compileProgram } from "./compile.js";

describe("CT-11 compilation", () => {
  it("CT-11 wraps the program in an async function and maps generated lines to the model's lines", async () => {
    const compiled = await compileProgram("type A = {\n  x: number;\n};\nconst a: A = { x: 1 };\nreturn a.x;");
    if (!compiled.ok) throw new Error(compiled.error);
    expect(compiled.code.startsWith("(async function(tools, console) {")).toBe(true);
    const returnLine = compiled.code.split("\n").findIndex((line) => line.includes("return a.x")) + 1;
    expect(compiled.lines[returnLine]).toBe(5);
  });

  it("CT-11 an unclosed block is reported at the end of the model's text", async () => {
    expect(await compileProgram("if (x) {\n  return 1;")).toEqual({
      ok: false,
      error: 'codemode: SyntaxError: Unexpected end of program; close every bracket, brace and string (line 2, column 12)',
    });
  });

  it("CT-11 module syntax is rejected: programs cannot import", async () => {
    const compiled = await compileProgram('import fs from "node:fs";\nreturn 1');
    expect(compiled.ok ? "compiled" : compiled.error).toBe('codemode: SyntaxError: Unexpected "fs" (line 1, column 8)');
  });
});
