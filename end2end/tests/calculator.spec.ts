import { expect, test } from "@playwright/test";
import { apiReport, pageNumbers, ready } from "./helpers";

// Runs with and without JavaScript: the server-rendered page already holds the answer.
test("the page shows the verdict for the scenario in its URL", async ({ page, request }) => {
  const query = "requests=20M&gpu_hour=3.1";
  await page.goto(`/?${query}`);
  const shown = await pageNumbers(page);
  const api = await apiReport(request, query);
  expect(shown.winner).toBe(api.verdict.winner);
  expect(shown.rent).toBeCloseTo(api.rent.monthly_usd, 6);
  expect(shown.selfHost).toBeCloseTo(api.self_host.monthly_usd, 6);
  await expect(page.getByTestId("verdict")).toContainText("Renting costs");
  await expect(page.getByTestId("chart-volume").locator("svg")).toHaveCount(1);
  await expect(page.getByTestId("per-class")).toContainText("Cached input");
  await expect(page.getByLabel("Requests per month")).toHaveValue("20M");
  await expect(page.getByLabel(/^GPU-hour price/)).toHaveValue("3.1");
});

// Without JavaScript, Enter submits the GET form; with it, the page updates live and the
// address bar follows. Either way the link and the numbers agree with the API.
test("editing the form gives a new scenario and link", async ({ page, request, javaScriptEnabled }) => {
  await page.goto("/?gpu_hour=3.1");
  await ready(page, javaScriptEnabled);
  const field = page.getByLabel("Requests per month");
  await field.fill("40M");
  await field.press("Enter");
  await expect(page).toHaveURL(/requests=40M/);
  await expect(page).toHaveURL(/gpu_hour=3.1/);
  const shown = await pageNumbers(page);
  const api = await apiReport(request, "requests=40M&gpu_hour=3.1");
  expect(shown.selfHost).toBeCloseTo(api.self_host.monthly_usd, 6);
});

test("the default page answers without any input", async ({ page, request }) => {
  await page.goto("/");
  const shown = await pageNumbers(page);
  const api = await apiReport(request, "");
  expect(shown.winner).toBe(api.verdict.winner);
  expect(shown.selfHost).toBeCloseTo(api.self_host.monthly_usd, 6);
  await expect(page.getByTestId("idle")).not.toHaveText("$0");
});

test("a bad parameter in the link is named and the page still answers", async ({ page }) => {
  await page.goto("/?tps=abc&colour=blue");
  await expect(page.getByTestId("problems")).toContainText("tps");
  await expect(page.getByTestId("ignored")).toContainText("colour");
  await expect(page.getByTestId("verdict")).toBeVisible();
});
