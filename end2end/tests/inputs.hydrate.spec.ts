import { expect, test } from "@playwright/test";
import { apiReport, chartsMatchServer, failOnConsoleErrors, hydrated, pageNumbers } from "./helpers";

async function matchesApi(page, request) {
  const query = new URL(page.url()).search.replace(/^\?/, "");
  const api = await apiReport(request, query);
  const shown = await pageNumbers(page);
  expect(shown.winner).toBe(api.verdict.winner);
  expect(shown.rent).toBeCloseTo(api.rent.monthly_usd, 6);
  expect(shown.selfHost).toBeCloseTo(api.self_host.monthly_usd, 6);
  return api;
}

test("changing the mix recomputes to what the API says", async ({ page, request, browser }) => {
  const noErrors = failOnConsoleErrors(page);
  await page.goto("/?tokens=30B&mix=2:7:1");
  await hydrated(page);
  const chart = page.getByTestId("chart-classes").locator(".svg");
  const before = await chart.innerHTML();
  await page.getByLabel(/^Mix \(/).fill("20:5:5");
  await expect.poll(() => chart.innerHTML()).not.toBe(before);
  await expect.poll(() => new URL(page.url()).searchParams.get("mix")).toBe("20:5:5");
  await matchesApi(page, request);
  await chartsMatchServer(page, browser);
  noErrors();
});

test("changing the curve recomputes and redraws", async ({ page, request, browser }) => {
  const noErrors = failOnConsoleErrors(page);
  await page.goto("/?requests=20M");
  await hydrated(page);
  const chart = page.getByTestId("chart-tps").locator(".svg");
  const before = await chart.innerHTML();
  await page.getByLabel(/Throughput curve/).selectOption("sglang-gb300-tp4");
  await expect.poll(() => chart.innerHTML()).not.toBe(before);
  await expect.poll(() => new URL(page.url()).searchParams.get("curve")).toBe("sglang-gb300-tp4");
  const api = await matchesApi(page, request);
  expect(api.inputs.curve).toBe("sglang-gb300-tp4");
  await expect(page.getByTestId("warnings")).toContainText("tuned best case");
  await chartsMatchServer(page, browser);
  noErrors();
});

test("switching the workload form keeps the same volumes", async ({ page, request }) => {
  await page.goto("/");
  await hydrated(page);
  const before = await pageNumbers(page);
  await page.getByRole("link", { name: "Three totals (invoice)" }).click();
  await expect(page.locator("#f-cached")).toBeVisible();
  const after = await matchesApi(page, request);
  expect(after.rent.monthly_usd).toBeCloseTo(before.rent, 6);
});

test("an invoice typed into one tab comes back after another tab", async ({ page, request }) => {
  await page.goto("/");
  await hydrated(page);
  await page.getByRole("link", { name: "Three totals (invoice)" }).click();
  await page.getByLabel(/^Uncached input tokens per month/).fill("3.1 B");
  await page.getByLabel(/^Cached input tokens per month/).fill("41,000,000,000");
  await page.getByLabel(/^Output tokens per month/).fill("900M");
  await page.getByRole("link", { name: "Requests × shape" }).click();
  await expect(page.getByLabel("Requests per month")).toBeVisible();
  await page.getByRole("link", { name: "Three totals (invoice)" }).click();
  await expect(page.getByLabel(/^Cached input tokens per month/)).toHaveValue("41,000,000,000");
  await expect(page.getByLabel(/^Uncached input tokens per month/)).toHaveValue("3.1 B");
  const api = await matchesApi(page, request);
  expect(api.inputs.volumes).toEqual({ uncached: 3.1e9, cached: 41e9, output: 9e8 });
});
