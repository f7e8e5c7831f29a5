import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { expect, type APIRequestContext, type Browser, type Page } from "@playwright/test";

/** The repository's root, and the release server the tests that need a server of their own start. */
export const root = resolve(__dirname, "../..");
export const binary = process.env.SERVECOST_BIN ?? join(root, "target/release/servecost-server");

/** A loopback port no one listens on. */
export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

/** Starts the release server on `database` and waits until it answers `/healthz`. */
export async function startServer(database: string): Promise<{ base: string; process: ChildProcess }> {
  const port = await freePort();
  const env = { ...process.env, LEPTOS_SITE_ADDR: `127.0.0.1:${port}`, DATABASE_URL: database, RUST_LOG: "warn" };
  const child = spawn(binary, [], { cwd: root, env, stdio: "ignore" });
  const base = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => (await fetch(`${base}/healthz`).catch(() => null))?.status ?? 0, { timeout: 30_000 })
    .toBe(200);
  return { base, process: child };
}

/** The JSON API's answer for a query string. */
export async function apiReport(request: APIRequestContext, query: string) {
  const response = await request.get(`/api/v1/evaluate?${query}`);
  expect(response.status(), await response.text()).toBe(200);
  return response.json();
}

/**
 * A share as the page prints it, no more precisely than its standard error: "more than 99 %",
 * "less than 1 %", or "about N %" rounded to 1, 2, 5 or 10 points, the first at least twice the
 * error. Written here from the rule on /method, not from the Rust.
 */
export function shareAbout(p: number, se: number): string {
  if (p >= 0.995) return "more than 99\u00a0%";
  if (p <= 0.005) return "less than 1\u00a0%";
  const step = [0.01, 0.02, 0.05, 0.1].find((s) => s >= 2 * se) ?? 0.1;
  const rounded = Math.min(0.99, Math.max(0.01, Math.round(p / step) * step));
  return `about ${Math.round(rounded * 100)}\u00a0%`;
}

/**
 * The rest of a sample beside a share `p` printed by `shareAbout` with error `se`, so that the
 * two add up as printed: "about 12 %" beside "about 88 %", "less than 1 %" beside "more than 99 %".
 */
export function restAbout(p: number, se: number): string {
  const shown = shareAbout(p, se);
  if (shown.startsWith("more than")) return "less than 1\u00a0%";
  if (shown.startsWith("less than")) return "more than 99\u00a0%";
  return `about ${100 - Number(/about (\d+)/.exec(shown)?.[1])}\u00a0%`;
}

/** The numbers the page shows, read from its data attributes. */
export async function pageNumbers(page: Page) {
  const verdict = page.getByTestId("verdict");
  await expect(verdict).toBeVisible();
  return {
    winner: await verdict.getAttribute("data-winner"),
    rent: Number(await page.getByTestId("rent-monthly").getAttribute("data-usd")),
    selfHost: Number(await page.getByTestId("self-monthly").getAttribute("data-usd")),
  };
}

/** Fails the test on any console error or uncaught exception (a broken WASM shows up here). */
export function failOnConsoleErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  return () => expect(errors, errors.join("\n")).toEqual([]);
}

/** Waits until the WASM app has hydrated the page. */
export async function hydrated(page: Page) {
  await expect(page.locator("[data-hydrated=true]")).toHaveCount(1, { timeout: 15_000 });
}

/**
 * The charts' numbers (their text alternatives) as the server renders them for the page's
 * current URL, next to the same numbers on the live page: the WASM redraw must match.
 */
export async function chartsMatchServer(page: Page, browser: Browser) {
  await settled(page);
  const ids = ["chart-volume", "chart-breakdown", "chart-tps", "chart-tornado"];
  const live = await Promise.all(ids.map((id) => page.getByTestId(id).locator("details.numbers table").textContent()));
  const context = await browser.newContext({ javaScriptEnabled: false });
  const ssr = await context.newPage();
  await ssr.goto(page.url());
  const served = await Promise.all(ids.map((id) => ssr.getByTestId(id).locator("details.numbers table").textContent()));
  await context.close();
  expect(live).toEqual(served);
}

/**
 * Waits until the page is ready for typing: hydrated when the browser runs JavaScript (a field
 * typed into before hydration is set back to the server's value when the WASM takes over), at
 * once when it does not (the form submits itself).
 */
export async function ready(page: Page, javaScriptEnabled: boolean | undefined) {
  if (javaScriptEnabled !== false) await hydrated(page);
}

/**
 * Waits until the live page shows the full answer of its inputs: after an edit the browser shows
 * the numbers at once and the sureness figures, flips and charts a task later. At once when the
 * page runs no JavaScript (the server renders the full answer).
 */
export async function settled(page: Page) {
  const live = await page.locator("[data-hydrated=true]").count();
  if (live > 0) await expect(page.locator("[data-settled=true]")).toHaveCount(1, { timeout: 15_000 });
}

/**
 * Opens the folded part of the form whose summary reads `summary`, as a person would: with
 * JavaScript its fields are made as it opens; without, its button sends the form (what was typed
 * included) with the section named, and the server answers with it open.
 */
export async function unfold(page: Page, summary: string, js: boolean | undefined) {
  const details = page.locator("details").filter({ has: page.locator(":scope > summary", { hasText: summary }) });
  if ((await details.getAttribute("open")) === null) await details.locator(":scope > summary").click();
  const button = details.getByTestId("fold-open");
  if (js === false && (await button.count()) > 0) {
    await button.click();
    await page.waitForLoadState("domcontentloaded");
  }
}

/** Applies the form: live with JavaScript, by the Update button without it. */
export async function apply(page: Page, js: boolean | undefined) {
  if (js === false) {
    await page.getByRole("button", { name: "Update", exact: true }).click();
    await page.waitForLoadState("domcontentloaded");
  }
}

/**
 * The query of the page's own link to its scenario, once the page shows the full answer of its
 * inputs (the share links follow an edit by a task).
 */
export async function ownLink(page: Page) {
  await settled(page);
  const href = await page.getByTestId("scenario-link").getAttribute("href");
  expect(href).not.toBeNull();
  return new URL(href ?? "/", "http://x").search.slice(1);
}

/** Chooses `model` in the calculator's form, as a person would: the select, and without
 * JavaScript the form's button; then waits for the page of the new model. */
export async function chooseModel(page: Page, model: string, js: boolean | undefined) {
  await page.getByLabel("Open-weight model").selectOption(model);
  if (js === false) await page.getByRole("button", { name: "Choose this model" }).click();
  await page.waitForURL(new RegExp(`model=${model}`));
  await page.waitForLoadState("domcontentloaded");
  await ready(page, js);
}
