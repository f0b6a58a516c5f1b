// Issue 21, in a real browser: headless Debian Chromium (puppeteer-core) against a demo-like app started with
// `koishi start`. Scenario 1: talk in the sandbox, open the Ishiki page, find that conversation's turn with its
// tool calls on the timeline. Scenario 2: a new user's app with no model and no profile; fill in a provider, a
// group and a profile in the plugin config form, save, restart the app, see the values again, get an answer in the
// sandbox. Screenshots land in artifacts/console/ (CI uploads the folder).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { sse, startServer, type TestServer } from "../../gateway/test/gateway-servers.js";
import { BOT, type BrowserDocument, ConfigForm, consoleApp, launchBrowser, openPage, removeApp, screenshot, talkInSandbox, type ConsoleApp } from "./console-browser-support.js";
import { journeyModel } from "./journey-model.js";

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

  it("a provider, a group and a profile filled in the config form are saved, shown again after a restart, and answer in the sandbox", async () => {
    const model = await startServer((request, response) => {
      const chunk = (delta: unknown, finish: string | null = null) => ({ id: "c", object: "chat.completion.chunk", created: 1, model: request.body.model, choices: [{ index: 0, delta, finish_reason: finish }] });
      const call = { index: 0, id: "call_1", type: "function", function: { name: "send_message", arguments: JSON.stringify({ messages: [`form answer via ${request.body.model}`] }) } };
      sse(response, [{ data: chunk({ role: "assistant", content: "" }) }, { data: chunk({ tool_calls: [call] }) }, { data: chunk({}, "tool_calls") }, { data: "[DONE]" }]);
    });
    servers.push(model);
    // A new user's app: the demo without its scripted model (which would replace the gateway's configuration),
    // without its notes plugin, and with no models and no profiles.
    const app = await consoleApp({}, (text) => {
      const plugins = text.replace(/^ {2}# Puts seed[^\n]*\n {2}\.\/demo-notes\.cjs: \{\}\n/m, "").replace(/^ {2}# ISHIKI_BASE_URL[^\n]*\n {2}\.\/demo-model\.cjs: \{\}\n/m, "");
      const head = plugins.slice(0, plugins.indexOf("  ishiki:\n"));
      if (!plugins.includes("  ishiki:\n") || head.includes("demo-")) throw new Error(`examples/bot/koishi.pristine.yml changed shape; adapt this test:\n${text}`);
      return `${head}  ishiki:\n    dataPath: data/ishiki\n`;
    });
    apps.push(app);
    await app.start("no profile configured");
    const ident = /^ {2}ishiki:(\w+):/m.exec(await readFile(join(app.dir, "koishi.yml"), "utf8"))![1];
    const errors: string[] = [];
    const page = await openPage(browser, errors);
    await page.setViewport({ width: 1400, height: 2200 });
    await page.goto(`${app.url}/plugins/${ident}`, { waitUntil: "networkidle0" });
    const form = new ConfigForm(page);

    await form.addEntry("models.providers", "relay");
    // openai-completions is the variant a new provider starts with; its fields are there at once.
    await form.fill("models.providers.relay.baseUrl", `${model.url}/v1`);
    await form.fill("models.providers.relay.apiKey", "sk-form-test");
    await form.addItem("models.providers.relay.models", 0);
    await form.fill("models.providers.relay.models[0].id", "journey");
    await form.addEntry("models.groups", "main");
    await form.addRow("models.groups.main.models", "relay:journey");
    await form.addEntry("profiles", "formbot");
    await form.fill("profiles.formbot.model", "main");
    await form.addEntry("profiles.formbot.channels", "sandbox:*:*");
    await form.addRow("profiles.formbot.channels.sandbox:*:*", "*");
    await screenshot(page, "form-filled");
    await form.save();
    await waitForOutput(app, "[formbot] profile active");

    // The loader writes koishi.yml on its own schedule around the reload.
    const started = Date.now();
    while (!(await readFile(join(app.dir, "koishi.yml"), "utf8")).includes("formbot")) {
      if (Date.now() - started > 10_000) throw new Error("koishi.yml was not written");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const saved = parse(await readFile(join(app.dir, "koishi.yml"), "utf8")) as { plugins: Record<string, { models: unknown; profiles: unknown }> };
    expect(saved.plugins[`ishiki:${ident}`]).toEqual({
      dataPath: "data/ishiki",
      models: { providers: { relay: { api: "openai-completions", baseUrl: `${model.url}/v1`, apiKey: "sk-form-test", models: [{ id: "journey" }] } }, groups: { main: { models: ["relay:journey"] } } },
      profiles: { formbot: { model: "main", channels: { "sandbox:*:*": ["*"] } } },
    });

    await app.stop();
    await app.start("[formbot] profile active");
    await page.goto(`${app.url}/plugins/${ident}`, { waitUntil: "networkidle0" });
    // The page lived through the app's restart: the console's own client (client.js) throws while its WebSocket is
    // down and its pages vanish (the dropped socket's `Event`, a redirect home). Only errors from here on count.
    errors.length = 0;
    expect(await form.value("models.providers.relay.baseUrl")).toBe(`${model.url}/v1`);
    expect(await form.value("models.providers.relay.apiKey")).toBe("sk-form-test");
    expect(await form.value("models.providers.relay.models[0].id")).toBe("journey");
    expect(await form.rows("models.groups.main.models")).toEqual(["relay:journey"]);
    expect(await form.value("profiles.formbot.model")).toBe("main");
    expect(await form.rows("profiles.formbot.channels.sandbox:*:*")).toEqual(["*"]);
    await screenshot(page, "form-after-restart");
    await form.scrollTo("models.groups");
    await screenshot(page, "form-after-restart-profile");

    await page.setViewport({ width: 1400, height: 900 });
    await talkInSandbox(page, app.url, "hello from the form", "form answer via journey");
    expect(model.received.at(-1)!.headers.authorization).toBe("Bearer sk-form-test");
    await screenshot(page, "form-answer");
    expect(errors).toEqual([]);
  }, 120_000);
});

async function waitForOutput(app: ConsoleApp, text: string): Promise<void> {
  const started = Date.now();
  while (!app.output().includes(text)) {
    if (Date.now() - started > 20_000) throw new Error(`"${text}" did not appear; output:\n${app.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
