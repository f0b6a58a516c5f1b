// Issue 21, in a real browser: headless Debian Chromium (puppeteer-core) against a demo-like app started with
// `koishi start`. Scenario 1: talk in the sandbox, open the Ishiki page, find that conversation's turn with its
// tool calls on the timeline. Screenshots land in artifacts/console/ (CI uploads the folder).
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../../gateway/test/gateway-servers.js";
import { BOT, type BrowserDocument, consoleApp, journeyModel, launchBrowser, openPage, removeApp, screenshot, talkInSandbox, type ConsoleApp } from "./console-browser-support.js";

declare const document: BrowserDocument;

const { SEED_PROGRAM } = createRequire(import.meta.url)(join(BOT, "demo-model.cjs")) as { SEED_PROGRAM: string };

let browser: Browser;
const apps: ConsoleApp[] = [];
const servers: TestServer[] = [];
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  for (const app of apps) await removeApp(app);
  for (const server of servers) await server.close();
});

describe("the Koishi console in a browser (issue 21)", () => {
  it("the Ishiki page shows the sandbox conversation's turn with its tool calls, and follows the next turn", async () => {
    const model = await startServer(journeyModel(SEED_PROGRAM, (result) => `done: ${(JSON.parse(result) as { count: number }).count} TODO lines`));
    servers.push(model);
    const app = await consoleApp({ ISHIKI_BASE_URL: `${model.url}/v1`, ISHIKI_MODEL: "journey" });
    apps.push(app);
    await app.start();
    const errors: string[] = [];
    const page = await openPage(browser, errors);

    await talkInSandbox(page, app.url, "please plan my notes", "done: 3 TODO lines");
    await screenshot(page, "sandbox");

    await page.goto(`${app.url}/ishiki`, { waitUntil: "networkidle0" });
    // The activity bar has the page, titled Ishiki (its tooltip); the only runtime is chosen by itself.
    await page.hover('.layout-activity a[href="/ishiki"]');
    await page.waitForFunction(() => Array.from(document.querySelectorAll(".el-popper")).some((tip) => tip.textContent?.trim() === "Ishiki"));
    await page.waitForSelector(".ishiki-row[data-kind=codemode]");
    // The console speaks Chinese by default: states are checked by their data attributes, the text by its words.
    const profile = await page.$eval("[data-profile=demo]", (element) => ({
      state: element.querySelector(".ishiki-profile-head [data-state]")?.getAttribute("data-state"),
      runtime: element.querySelector(".ishiki-runtime [data-state]")?.getAttribute("data-state"),
      outcome: element.querySelector("[data-outcome]")?.getAttribute("data-outcome"),
      tokens: Number(element.querySelector("[data-tokens]")?.getAttribute("data-tokens")),
      text: element.textContent ?? "",
    }));
    expect(profile).toEqual(expect.objectContaining({ state: "active", runtime: "idle", outcome: "done" }));
    expect(profile.tokens).toBeGreaterThan(0);
    expect(profile.text).toContain(`今日 ${profile.tokens} token`);
    const rows = await page.$$eval(".ishiki-row", (elements) => elements.map((element) => ({ kind: element.getAttribute("data-kind"), turn: element.getAttribute("data-turn"), text: element.textContent ?? "" })));
    const asked = rows.find((row) => row.kind === "message.in" && row.text.includes("please plan my notes"))!;
    expect(asked).toBeDefined();
    const turn = rows.filter((row) => row.turn !== null && row.turn === rows.find((other) => other.kind === "codemode")?.turn);
    expect(turn.map((row) => row.kind)).toEqual(expect.arrayContaining(["turn.start", "model", "tool", "codemode", "message.out", "turn.done"]));
    expect(turn.find((row) => row.kind === "tool")!.text).toContain("write_file");
    const codemode = turn.find((row) => row.kind === "codemode")!.text;
    expect(codemode).toContain("tools.write_file");
    expect(codemode).toContain('"count": 3');
    expect(turn.find((row) => row.kind === "message.out")!.text).toContain("done: 3 TODO lines");
    // Tall enough for the whole turn, from the user's message to its end.
    await page.setViewport({ width: 1400, height: 2000 });
    await screenshot(page, "ishiki-page");
    await page.setViewport({ width: 1400, height: 900 });
    // search's long output is folded; "show more" pages the rest in.
    const folded = await page.$eval(".ishiki-row[data-kind=tool] .ishiki-section:last-child", (section) => section.textContent ?? "");
    expect(folded).toMatch(/1200 \/ \d+ 字符/);
    await page.click(".ishiki-row[data-kind=tool] .ishiki-section:last-child button");
    await page.waitForFunction(() => document.querySelector(".ishiki-row[data-kind=tool] .ishiki-section:last-child .ishiki-folded") === null);

    // A second message while the page is open: its turn appears without a reload (the page follows the stream).
    const talk = await openPage(browser, errors);
    await talkInSandbox(talk, app.url, "and once more", "done: 3 TODO lines");
    await page.bringToFront();
    await page.waitForFunction(() => Array.from(document.querySelectorAll(".ishiki-row[data-kind='message.in']")).some((row) => row.textContent?.includes("and once more")), { timeout: 20_000 });
    expect(errors).toEqual([]);
  }, 120_000);
});
