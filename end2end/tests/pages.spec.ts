import { expect, test } from "@playwright/test";
import { apiReport, pageNumbers } from "./helpers";

// With and without JavaScript: the server-rendered page already holds every chart and source.
test("the page shows all five charts, each with its numbers", async ({ page }) => {
  await page.goto("/?requests=20M");
  for (const id of ["chart-volume", "chart-classes", "chart-breakdown", "chart-tps", "chart-tornado"]) {
    const figure = page.getByTestId(id);
    await expect(figure.locator("svg")).toHaveCount(1);
    await expect(figure.locator("svg")).toHaveAttribute("role", "img");
    await expect(figure.locator("details.numbers")).toHaveCount(1);
  }
});

test("every cited figure links to its source", async ({ page }) => {
  await page.goto("/");
  const cites = page.locator("sup.cite a");
  expect(await cites.count()).toBeGreaterThan(3);
  for (const href of await cites.evaluateAll((as) => as.map((a) => a.getAttribute("href")))) {
    await expect(page.locator(href as string)).toHaveCount(1);
  }
  await expect(page.locator("#src-aa-model-page")).toContainText("Artificial Analysis");
  await expect(page.locator("#src-inferencex")).toContainText("independent");
  await expect(page.getByTestId("warnings")).toContainText("Licence");
});

test("break-even and the headline decoder agree with the API", async ({ page, request }) => {
  await page.goto("/?headline=150M");
  const api = await apiReport(request, "headline=150M");
  const tokens = Number(await page.getByTestId("break-even").locator("dd").first().getAttribute("data-tokens"));
  expect(tokens).toBeCloseTo(api.break_even.monthly_tokens, 0);
  await expect(page.getByTestId("decoded")).toContainText("206,250 tokens/s per GPU");
  await expect(page.getByTestId("operating-point")).toContainText("users decoding at once per MW");
});

test("a published operating point is one click away", async ({ page, request }) => {
  await page.goto("/");
  await page.locator(".marks a", { hasText: /^\s*191\s*$/ }).click();
  await expect(page).toHaveURL(/tps=191/);
  const shown = await pageNumbers(page);
  const api = await apiReport(request, "tps=191");
  expect(shown.selfHost).toBeCloseTo(api.self_host.monthly_usd, 6);
});

test("/data lists every curve, price and source", async ({ page }) => {
  await page.goto("/data");
  await expect(page.locator("#curve-sglang-gb300-tp4")).toContainText("stated by the source");
  await expect(page.locator("#curve-inferencex-b300-fp4")).toContainText("assumed");
  await expect(page.getByTestId("facts")).toContainText("91,500 agents per MW");
  await expect(page.getByTestId("sources")).toContainText("vendor");
});

test("/method explains the model", async ({ page }) => {
  await page.goto("/method");
  await expect(page.locator("h1")).toHaveText("How the calculation works");
  await expect(page.locator("pre").first()).toContainText("rent = ");
});

test("the page fits a 360 px wide screen", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto("/");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(page.getByTestId("verdict")).toBeVisible();
});
