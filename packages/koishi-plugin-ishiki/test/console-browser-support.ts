// The browser tests' harness (issue 21): a demo-like Koishi app started with `koishi start` in a temp copy of
// examples/bot (console, sandbox, ishiki), a scripted OpenAI-compatible model on 127.0.0.1, and headless Debian
// Chromium driven by puppeteer-core. Screenshots go to artifacts/console/ at the repo root (a CI artifact folder).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer, { type Browser, type ElementHandle, type Page } from "puppeteer-core";
import { freePort } from "../../gateway/test/gateway-servers.js";

/** What the functions run in the browser use of its `document` (the project compiles without the DOM lib). */
export interface BrowserDocument {
  querySelector(selector: string): BrowserElement | null;
  querySelectorAll(selector: string): ArrayLike<BrowserElement>;
}
interface BrowserElement {
  textContent: string | null;
  value?: string;
  getAttribute(name: string): string | null;
  querySelector(selector: string): BrowserElement | null;
}
declare const document: BrowserDocument;

export const BOT = fileURLToPath(new URL("../../../examples/bot", import.meta.url));
export const ARTIFACTS = fileURLToPath(new URL("../../../artifacts/console", import.meta.url));
const CHROMIUM = "/usr/bin/chromium";

export interface ConsoleApp {
  dir: string;
  port: number;
  url: string;
  output(): string;
  /** Starts the app (again, after `stop`) and resolves once `ready` appeared in its output since the start. */
  start(ready?: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A copy of the demo app in a temp folder (koishi.yml from the pristine file), not yet started. `env` reaches the
 * app's process; ISHIKI_BASE_URL, ISHIKI_MODEL and ISHIKI_API_KEY of the test's own environment do not.
 */
export async function consoleApp(env: Record<string, string> = {}, koishiYml: (text: string) => string = (text) => text): Promise<ConsoleApp> {
  for (const name of ["core", "gateway", "koishi-plugin-ishiki", "workspace"]) {
    if (!existsSync(join(BOT, `../../packages/${name}/lib/index.cjs`))) throw new Error(`packages/${name}: lib/index.cjs is missing; run pnpm run build first`);
  }
  if (!existsSync(join(BOT, "../../packages/koishi-plugin-ishiki/dist/index.js"))) throw new Error("the console page is not built (packages/koishi-plugin-ishiki/dist); run pnpm run build first");
  const dir = await mkdtemp(join(tmpdir(), "ishiki-console-app-"));
  await symlink(join(BOT, "node_modules"), join(dir, "node_modules"), "dir");
  const { prepareApp } = (await import(join(BOT, "prepare.mjs"))) as { prepareApp(options: { dir: string; port: number }): Promise<void> };
  const port = await freePort();
  await prepareApp({ dir, port });
  await writeFile(join(dir, "koishi.yml"), koishiYml(await readFile(join(dir, "koishi.yml"), "utf8")));
  const base: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", FORCE_COLOR: "0" };
  for (const name of ["ISHIKI_BASE_URL", "ISHIKI_MODEL", "ISHIKI_API_KEY"]) delete base[name];
  let child: ChildProcess | undefined;
  let output = "";
  const app: ConsoleApp = {
    dir,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async start(ready = "[demo] profile active") {
      const from = output.length;
      // Detached: `koishi start` forks a worker, and only the process group's end frees the port.
      child = spawn(process.execPath, [join(dir, "node_modules/koishi/bin.js"), "start"], { cwd: dir, detached: true, env: { ...base, ...env } });
      child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      const started = Date.now();
      while (!output.slice(from).includes(ready) || !output.slice(from).includes("webui is available")) {
        if (Date.now() - started > 30_000) throw new Error(`the app did not start; output:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      const running = child;
      child = undefined;
      if (running?.pid === undefined || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      try {
        process.kill(-running.pid, "SIGKILL");
      } catch {}
      await exited;
      // The worker may outlive the CLI by a moment: wait until the port is free again.
      const started = Date.now();
      while (!(await portFree(port))) {
        if (Date.now() - started > 10_000) throw new Error(`port ${port} still taken after the app stopped`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
  return app;
}

async function portFree(port: number): Promise<boolean> {
  const { createServer } = await import("node:net");
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** Headless Chromium from Debian (`.ci/run` installs it with apt when missing). */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: the browser tests need Debian's chromium and fonts-noto-cjk (apt-get install -y chromium fonts-noto-cjk; .ci/run does it)`);
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // --no-sandbox: CI runs as root. The rest keeps Chromium off every host but 127.0.0.1.
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--lang=zh-CN"],
  });
}

/** A page with a desktop viewport; browser errors are collected for the failure message. */
export async function openPage(browser: Browser, errors: string[]): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  // The whole suite shares two cores with these apps: waits get a minute rather than puppeteer's 30 s.
  page.setDefaultTimeout(60_000);
  page.on("pageerror", (error) => errors.push(`${String(error)} at ${page.url()}: ${String((error as Error).stack).split("\n").slice(1, 3).join(" ")}`));
  return page;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: path as `${string}.png` });
  return path;
}

/** Adds a sandbox user (the sandbox page's 添加用户) and sends `text` in its private chat; resolves with the reply. */
export async function talkInSandbox(page: Page, url: string, text: string, expected: string): Promise<void> {
  await page.goto(`${url}/sandbox`, { waitUntil: "networkidle0" });
  if ((await page.$(".page-sandbox .textarea input")) === null) await (await page.waitForSelector("::-p-text(添加用户)"))!.click();
  const input = await page.waitForSelector(".page-sandbox .textarea input");
  await input!.type(text);
  await page.keyboard.press("Enter");
  await page.waitForFunction((wanted) => document.querySelector(".page-sandbox")?.textContent?.includes(wanted), { timeout: 60_000 }, expected);
}

export async function removeApp(app: ConsoleApp): Promise<void> {
  await app.stop();
  await rm(app.dir, { recursive: true, force: true });
}

/**
 * The plugin config form of the console (@koishijs/plugin-config 2.8.6), driven as a user does: fields are found by
 * their heading, `models.providers.relay.baseUrl` (a dict entry's heading is its prefix and the key typed into it).
 */
export class ConfigForm {
  public constructor(private readonly page: Page) {}

  /** The form's item whose heading reads `path`. */
  private async item(path: string) {
    const handle = await this.page.evaluateHandle((wanted) => {
      const heading = (item: BrowserElement) => {
        const h3 = item.querySelector(":scope > .k-schema-main h3");
        if (!h3) return "";
        const entry = h3.querySelector(".entry-input input");
        return entry ? `${h3.querySelector(".prefix")?.textContent ?? ""}.${entry.value ?? ""}` : (h3.textContent ?? "").replace(/\s+/g, "");
      };
      return Array.from(document.querySelectorAll(".k-schema-item")).find((item) => heading(item) === wanted) ?? null;
    }, path);
    const element = handle.asElement();
    if (element === null) throw new Error(`the form has no field ${path}`);
    return element as ElementHandle;
  }

  private async press(path: string, label: string): Promise<void> {
    const item = await this.item(path);
    for (const button of await item.$$(":scope > .k-schema-main .k-schema-right button")) {
      if ((await button.evaluate((node) => node.textContent?.trim())) === label) return button.click();
    }
    throw new Error(`${path} has no button ${label}`);
  }

  /** 添加项目 on a dict, then the new entry's key. */
  public async addEntry(path: string, key: string): Promise<void> {
    await this.press(path, "添加项目");
    const input = await this.page.waitForFunction(
      (prefix) => Array.from(document.querySelectorAll(".k-schema-item h3")).find((h3) => h3.querySelector(".prefix")?.textContent === prefix && h3.querySelector(".entry-input input")?.value === "")?.querySelector(".entry-input input"),
      {},
      path,
    );
    const element = input.asElement() as ElementHandle;
    await element.click();
    await element.type(key);
    await this.page.keyboard.press("Tab");
    await this.item(`${path}.${key}`);
  }

  /** 添加项目 on a list of objects: its new item is `path[index]`. */
  public async addItem(path: string, index: number): Promise<void> {
    await this.press(path, "添加项目");
    await this.page.waitForFunction((wanted) => Array.from(document.querySelectorAll(".k-schema-item h3")).some((h3) => (h3.textContent ?? "").replace(/\s+/g, "") === wanted), {}, `${path}[${index}]`);
  }

  /** 添加行 on a table (a list of strings), then the new row's text. */
  public async addRow(path: string, value: string): Promise<void> {
    await this.press(path, "添加行");
    const item = await this.item(path);
    const input = await item.waitForSelector(":scope > .bottom .k-schema-table tr:last-child input");
    await input!.click();
    await input!.type(value);
  }

  /** Replaces the text of a field's input. */
  public async fill(path: string, value: string): Promise<void> {
    const input = await (await this.item(path)).$(":scope > .k-schema-main .k-schema-right input");
    if (input === null) throw new Error(`${path} has no input`);
    await input.click({ count: 3 });
    await input.type(value);
  }

  /** The text of a field's input. */
  public async value(path: string): Promise<string> {
    return (await this.item(path)).$eval(":scope > .k-schema-main .k-schema-right input", (input) => (input as unknown as { value: string }).value);
  }

  /** The texts of a table's rows. */
  public async rows(path: string): Promise<string[]> {
    return (await this.item(path)).$$eval(":scope > .bottom .k-schema-table input", (inputs) => inputs.map((input) => (input as unknown as { value: string }).value));
  }

  /** Whether the form has a field `path`. */
  public async has(path: string): Promise<boolean> {
    return this.item(path).then(() => true, () => false);
  }

  /** Scrolls the form so that `path` is at the top (for screenshots). */
  public async scrollTo(path: string): Promise<void> {
    await (await this.item(path)).evaluate((node) => (node as unknown as { scrollIntoView(): void }).scrollIntoView());
  }

  /** Saves and reloads the plugin (the page's Ctrl+S). */
  public async save(): Promise<void> {
    await this.page.keyboard.down("Control");
    await this.page.keyboard.press("s");
    await this.page.keyboard.up("Control");
  }
}
