import { expect, test } from "@playwright/test";
import { apiReport, chartsMatchServer, failOnConsoleErrors, hydrated, pageNumbers } from "./helpers";

test("changing the volume recomputes in the browser to what the API says", async ({ page, request, browser }) => {
  const noErrors = failOnConsoleErrors(page);
  await page.goto("/");
  await hydrated(page);
  const before = await pageNumbers(page);
  const calls: string[] = [];
  page.on("request", (r) => calls.push(r.url()));

  await page.getByLabel("Requests per month").fill("50M");
  await expect(page.getByTestId("verdict")).not.toHaveAttribute("data-winner", before.winner ?? "");
  await expect.poll(() => new URL(page.url()).searchParams.get("requests")).toBe("50M");
  const after = await pageNumbers(page);
  const api = await apiReport(request, "requests=50M");
  expect(after.winner).toBe(api.verdict.winner);
  expect(after.rent).toBeCloseTo(api.rent.monthly_usd, 6);
  expect(after.selfHost).toBeCloseTo(api.self_host.monthly_usd, 6);
  // The charts' drawing code arrives with the first chart drawn in the browser (a static,
  // immutable file): the only request an edit may make.
  const asked = calls.filter((url) => !/\/pkg\/servecost-[0-9a-f]{16}-split[\w.-]*$/.test(url));
  expect(asked, "recomputed without a server round trip").toEqual([]);
  await chartsMatchServer(page, browser);
  noErrors();
});

test("changing the GPU-hour price recomputes and redraws the chart", async ({ page, request, browser }) => {
  const noErrors = failOnConsoleErrors(page);
  await page.goto("/?requests=20M");
  await hydrated(page);
  const chart = page.getByTestId("chart-volume").locator(".svg");
  const before = await chart.innerHTML();
  await page.getByLabel(/^GPU-hour price/).fill("9");
  await expect.poll(() => chart.innerHTML()).not.toBe(before);
  const shown = await pageNumbers(page);
  const api = await apiReport(request, "requests=20M&gpu_hour=9");
  expect(shown.winner).toBe(api.verdict.winner);
  expect(shown.selfHost).toBeCloseTo(api.self_host.monthly_usd, 6);
  await chartsMatchServer(page, browser);
  noErrors();
});

test("an invalid value shows its message and keeps the last result", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  const before = await pageNumbers(page);
  await page.getByLabel(/^GPU-hour price/).fill("-4");
  await expect(page.getByTestId("error-gpu_hour")).toContainText("from 0.01 to 1,000 $/GPU-hour");
  const after = await pageNumbers(page);
  expect(after.selfHost).toBe(before.selfHost);
});

test("figures kept while a field cannot be read are marked as the last readable inputs'", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  const field = page.getByLabel(/^GPU-hour price/);
  await field.fill("6.5");
  await expect(page).toHaveURL(/gpu_hour=6.5/);
  await expect(page.getByTestId("stale-note")).toHaveCount(0);
  const kept = await pageNumbers(page);
  await field.fill("-4");
  await expect(page.getByTestId("error-gpu_hour")).toBeVisible();
  await expect(page.getByTestId("stale-note")).toContainText("last inputs that could be read");
  expect((await pageNumbers(page)).selfHost).toBe(kept.selfHost);
  await field.fill("6.5");
  await expect(page.getByTestId("stale-note")).toHaveCount(0);
});
