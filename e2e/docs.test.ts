/**
 * The kbts book, checked in a real browser: the site is built as `make docs` builds it, served on
 * 127.0.0.1, and opened in headless Chromium (Debian's, `make chromium`, driven by playwright-core).
 * Every page is crawled with JavaScript off, which is also what a reader without JavaScript gets:
 * no internal link may lead to a missing page or anchor. Then, with JavaScript: each page of the
 * sidebar renders with no console error, search finds a marker by name, and a code block's copy
 * button puts its code on the clipboard. Screenshots of the home page and of the marker reference go
 * to .test-results/docs/.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import config from "../docs/.vitepress/config.js";
import { buildSite, CHROMIUM, serveSite } from "./docs-site.js";
import { REPO } from "./support/paths.js";

const RESULTS = join(REPO, ".test-results/docs");
const work = mkdtempSync(join(tmpdir(), "kbts-e2e-docs-"));
const dist = join(work, "dist");
let server: Server | undefined;
let base = "";
let browser: Browser | undefined;
const timings: Record<string, number> = {};

/** Every page the sidebar links to, as a path of the built site (`/guide/quick-start.html`). */
function sidebarPages(): string[] {
  const out: string[] = [];
  const walk = (items: unknown): void => {
    if (!Array.isArray(items)) return;
    for (const item of items as { link?: string; items?: unknown }[]) {
      if (item.link) out.push(item.link.endsWith("/") ? `${item.link}index.html` : `${item.link}.html`);
      walk(item.items);
    }
  };
  walk(config.themeConfig?.sidebar);
  return ["/index.html", ...out];
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: run \`make chromium\` (or \`make tools\`)`);
  timings.buildSeconds = buildSite(dist);
  ({ url: base, server } = await serveSite(dist));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  mkdirSync(RESULTS, { recursive: true });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  writeFileSync(join(RESULTS, "timings.json"), `${JSON.stringify(timings, null, 2)}\n`);
  rmSync(work, { recursive: true, force: true });
});

const pathOf = (href: string): string => {
  const u = new URL(href);
  return u.pathname.endsWith("/") ? `${u.pathname}index.html` : u.pathname;
};

describe.sequential("the kbts book in Chromium", () => {
  it("has no broken internal link or anchor on any page, and its pages read without JavaScript", async () => {
    const started = performance.now();
    const context = await browser!.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const ids = new Map<string, Set<string>>();
    const status = new Map<string, number>();
    const links: { from: string; to: string }[] = [];
    const unresolved: string[] = [];
    const queue = sidebarPages();
    while (queue.length) {
      const path = queue.shift()!;
      if (status.has(path)) continue;
      const response = await page.goto(`${base}${path}`);
      status.set(path, response?.status() ?? 0);
      if (response?.status() !== 200) continue;
      // Evaluated in the page (a string: this file is type-checked without the DOM's types).
      const found = (await page.evaluate(
        `({ hrefs: [...document.querySelectorAll("a[href]")].map((a) => a.href),
            ids: [...document.querySelectorAll("[id]")].map((e) => e.id),
            html: document.documentElement.outerHTML })`,
      )) as { hrefs: string[]; ids: string[]; html: string };
      ids.set(path, new Set(found.ids));
      // An include or code snippet whose file moved leaves its directive or VitePress' complaint.
      for (const left of ["@include:", "Code snippet path not found", "File not found"])
        if (found.html.includes(left)) unresolved.push(`${path}: ${left}`);
      for (const href of found.hrefs) {
        if (!href.startsWith(base)) continue;
        links.push({ from: path, to: href });
        const target = pathOf(href);
        if (!status.has(target) && !queue.includes(target)) queue.push(target);
      }
    }
    await context.close();
    const broken: string[] = [];
    for (const { from, to } of links) {
      const target = pathOf(to);
      if (status.get(target) !== 200) broken.push(`${from} -> ${to} (${status.get(target)})`);
      const hash = decodeURIComponent(new URL(to).hash.slice(1));
      if (hash && status.get(target) === 200 && !ids.get(target)?.has(hash))
        broken.push(`${from} -> ${to} (no element with id "${hash}")`);
    }
    timings.crawlSeconds = (performance.now() - started) / 1000;
    expect([...new Set(broken)]).toEqual([]);
    expect(unresolved).toEqual([]);
    expect(status.size).toBeGreaterThanOrEqual(sidebarPages().length);
    expect(links.length).toBeGreaterThan(500);
  }, 300_000);

  it("serves the reference pages' content in the HTML itself (no JavaScript needed)", async () => {
    const context = await browser!.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/reference/markers.html`);
    await expect
      .poll(() => page.locator("h2#kubebuilder-validation-minimum").textContent())
      .toContain("+kubebuilder:validation:Minimum");
    expect(await page.locator("main").textContent()).toContain("+kubebuilder:validation:Minimum=<");
    await page.goto(`${base}/reference/cli.html`);
    expect(await page.locator("h3#kbts-create-api").textContent()).toContain("kbts create api");
    expect(await page.locator("main").textContent()).toContain("--domain <domain>");
    await page.goto(`${base}/reference/runtime/index-1.html`);
    expect(await page.locator("h1").textContent()).toContain("@kbts/runtime");
    expect(await page.locator("main").textContent()).toContain("controllerManagedBy");
    await context.close();
  });

  it("renders every page of the sidebar with no console error", async () => {
    const started = performance.now();
    const context = await browser!.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    let current = "";
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(`${current}: ${m.text()}`);
    });
    page.on("pageerror", (e) => errors.push(`${current}: ${e.message}`));
    for (const path of sidebarPages()) {
      current = path;
      const response = await page.goto(`${base}${path}`);
      expect(response?.status(), path).toBe(200);
      // Hydrated: Vue has mounted the page (the theme's navigation answers).
      await page.locator(".VPNav").waitFor();
      await page.waitForLoadState("networkidle");
      expect(await page.locator("h1").first().textContent(), path).toBeTruthy();
      if (path === "/index.html") await page.screenshot({ path: join(RESULTS, "home.png") });
      if (path === "/reference/markers.html")
        await page.screenshot({ path: join(RESULTS, "reference-markers.png") });
    }
    timings.renderSeconds = (performance.now() - started) / 1000;
    expect(errors).toEqual([]);
    expect(existsSync(join(RESULTS, "home.png"))).toBe(true);
    expect(existsSync(join(RESULTS, "reference-markers.png"))).toBe(true);
    await context.close();
  }, 300_000);

  it("finds a marker by name with the local search, and opens its section", async () => {
    const context = await browser!.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/index.html`);
    await page.locator("#local-search button").click();
    const input = page.locator(".VPLocalSearchBox input");
    await input.fill("XValidation");
    const hit = page.locator(".VPLocalSearchBox .results a", {
      hasText: "+kubebuilder:validation:XValidation",
    });
    await hit.first().waitFor();
    expect(await hit.first().getAttribute("href")).toBe(
      "/reference/markers.html#kubebuilder-validation-xvalidation",
    );
    await hit.first().click();
    await page.waitForURL(/\/reference\/markers\.html#kubebuilder-validation-xvalidation$/);
    await context.close();
  });

  it("copies a code block with its copy button", async () => {
    const context = await browser!.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
    const page = await context.newPage();
    await page.goto(`${base}/guide/quick-start.html`);
    const block = page.locator('div[class*="language-"]', { hasText: "kbts create webhook" }).first();
    const code = ((await block.locator("pre code").textContent()) ?? "").trimEnd();
    expect(code).toContain("kbts init --domain example.com --repo example.com/memcached");
    await block.hover();
    await block.locator("button.copy").click();
    await expect.poll(() => page.evaluate("navigator.clipboard.readText()")).toBe(code);
    await expect.poll(() => block.locator("button.copy").getAttribute("class")).toContain("copied");
    await context.close();
  });
});
