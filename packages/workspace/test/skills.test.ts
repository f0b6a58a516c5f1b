import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discoverSkills, type BashResult } from "../src/index.js";
import { frontMatter } from "../src/skills/front-matter.js";
import { call, invokeWorkspace, startKernel, type Invoked, type Kernel } from "./support.js";

let kernel: Kernel;
let root: string;
let ws: Invoked;

async function skill(dir: string, name: string, front: string, body = "Steps.\n"): Promise<void> {
  await mkdir(join(dir, name), { recursive: true });
  await writeFile(join(dir, name, "SKILL.md"), `---\n${front}\n---\n${body}`);
}

beforeAll(async () => {
  kernel = await startKernel({ bare: { model: "mock:m", channels: { "mock:bot": ["*"] } } }, undefined, async (dir) => {
    root = join(dir, "profiles", "bare");
    const shared = join(dir, "skills");
    await skill(shared, "pdf-tools", "name: pdf-tools\ndescription: Shared PDF helpers");
    await skill(shared, "csv-report", 'name: csv-report\ndescription: "Summarise CSV files"', "# CSV report\nRun the script.\n");
    await skill(shared, "Bad_Name", "name: Bad_Name\ndescription: invalid name");
    await skill(shared, "mismatch", "name: other\ndescription: wrong name");
    await skill(shared, "no-desc", "name: no-desc\ndescription:");
    await mkdir(join(shared, "not-a-skill"), { recursive: true });
    await writeFile(join(shared, "csv-report", "report.sh"), "echo report\n");
    await mkdir(join(shared, "csv-report", "lib"), { recursive: true });
    await writeFile(join(shared, "csv-report", "lib", "helper.txt"), "helper\n");
    // Profile sources: a directory of skills, and a directory that is itself a skill.
    await skill(join(root, "my-skills"), "pdf-tools", "name: pdf-tools\ndescription: >\n  Profile PDF helpers,\n  folded");
    await skill(root, "solo", "name: solo\ndescription: A single skill dir");
  });
  ws = await invokeWorkspace(kernel, { skills: ["my-skills", "solo", "absent"] });
});

afterAll(async () => {
  await kernel.dispose();
});

describe("skills", () => {
  it("WS-18 sources are merged by name and the profile wins; a SKILL.md dir is a skill, else its children", async () => {
    const skills = await discoverSkills({ dataPath: kernel.dir, root, dirs: ["my-skills", "solo"], warn: () => undefined });
    expect(skills.map((found) => [found.name, found.description])).toEqual([
      ["csv-report", "Summarise CSV files"],
      ["pdf-tools", "Profile PDF helpers, folded"],
      ["solo", "A single skill dir"],
    ]);
    expect(skills.find((found) => found.name === "pdf-tools")!.dir).toBe(join(root, "my-skills", "pdf-tools"));
  });

  it("WS-19 invalid skills are dropped with a warning naming the file", () => {
    const text = ws.warnings.join("\n");
    expect(text).toContain(`skill ${join(kernel.dir, "skills", "Bad_Name", "SKILL.md")}: name "Bad_Name" must be lower-case words joined by hyphens; skipped`);
    expect(text).toContain(`skill ${join(kernel.dir, "skills", "mismatch", "SKILL.md")}: name "other" must equal the directory name "mismatch"; skipped`);
    expect(text).toContain(`skill ${join(kernel.dir, "skills", "no-desc", "SKILL.md")}: description is missing or empty; skipped`);
    expect(text).toContain(`skills directory ${join(root, "absent")} does not exist; skipped`);
    expect(text).not.toContain("not-a-skill");
  });

  it("WS-19 front matter parsing: quotes, folded blocks, no block", () => {
    expect(frontMatter("---\nname: a\ndescription: 'q'\n---\nbody")).toEqual({ name: "a", description: "q" });
    expect(frontMatter("---\ndescription: |\n  one\n  two\nname: b\n---\n")).toEqual({ description: "one\ntwo", name: "b" });
    expect(frontMatter("# no front matter")).toBeUndefined();
  });

  it("WS-3 WS-20 skills are mounted read-only under /home/skills and listed in the instructions", async () => {
    const listing = await call<BashResult>(ws.tools, "bash", { command: "ls /home/skills; cat /home/skills/csv-report/lib/helper.txt" });
    expect(listing.stdout).toBe("csv-report\npdf-tools\nsolo\nhelper\n");
    const write = await call<BashResult>(ws.tools, "bash", { command: "echo x > /home/skills/csv-report/new.txt; mkdir /home/skills/mine" });
    expect(write.exitCode).not.toBe(0);
    expect(write.stderr).toContain("EROFS");
    const instructions = await ws.instance.extendInstructions!();
    expect(instructions).toContain("## Skills");
    expect(instructions).toContain("- csv-report: Summarise CSV files (/home/skills/csv-report)");
    expect(instructions).toContain("- pdf-tools: Profile PDF helpers, folded (/home/skills/pdf-tools)");
    expect(instructions).not.toContain("Run the script.");
  });

  it("WS-22 skill:// reads SKILL.md by default and relative files, confined to the skill", async () => {
    const main = await ws.host.resources.resolve("skill://csv-report");
    expect(main.type === "text" && main.text).toBe('---\nname: csv-report\ndescription: "Summarise CSV files"\n---\n# CSV report\nRun the script.\n');
    const nested = await ws.host.resources.resolve("skill://csv-report/lib/helper.txt");
    expect(nested.type === "text" && nested.text).toBe("helper\n");
    const lines = await ws.host.resources.resolve("skill://csv-report/SKILL.md:5-5");
    expect(lines.type === "text" && lines.text).toBe("# CSV report\n");
  });

  it("WS-22 an unknown skill is resource_not_found listing the skills", async () => {
    await expect(ws.host.resources.resolve("skill://nope/SKILL.md")).rejects.toMatchObject({
      code: "resource_not_found",
      message: 'skill "nope" not found; available: csv-report, pdf-tools, solo',
    });
    await expect(ws.host.resources.resolve("skill://csv-report/missing.md")).rejects.toMatchObject({ code: "resource_not_found" });
  });
});
