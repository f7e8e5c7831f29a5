import { expect, test, type Page } from "@playwright/test";
import { apiReport, apply, ready, settled } from "./helpers";

/** `$12,345` as the page writes dollars of $100 and more. */
const dollars = (v: number) => `$${Math.round(v).toLocaleString("en-US")}`;

/** The plan section's figures as the page shows them. */
async function shownPlan(page: Page) {
  const years = page.getByTestId("years");
  await expect(years).toBeVisible();
  return {
    months: Number(await years.getAttribute("data-months")),
    payback: await years.getAttribute("data-payback"),
    npvRent: Number(await years.getAttribute("data-npv-rent")),
    npvSelf: Number(await years.getAttribute("data-npv-self")),
  };
}

// An infra lead weighing self-hosting against a volume that triples each year, at an on-demand
// price they negotiated: this month renting is cheaper. They set the growth and the horizon in
// the form, and read the plan over the years: the cumulative chart, the payback month and the
// present values are the API's for the page's own link; shortening the horizon follows.
test("the plan over the years follows the horizon, its payback month and values the API's", async ({ page, request, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  await page.getByLabel("Requests per month").fill("2M");
  await page.getByLabel(/^GPU-hour price/).fill("2.1");
  await page.getByLabel(/^Growth of the monthly volume/).fill("200%");
  await page.getByLabel(/^Years ahead/).fill("5");
  await apply(page, javaScriptEnabled);
  await expect(page).toHaveURL(/horizon=5/);
  await settled(page);

  const own = new URL(page.url()).search.replace(/^\?/, "");
  const api = await apiReport(request, own);
  expect(api.plan.months).toHaveLength(60);
  // The case the lead came for: dearer at first, paid back within the horizon.
  expect(api.plan.months[0].self_host_usd).toBeGreaterThan(api.plan.months[0].rent_usd);
  expect(api.plan.payback_month).toBeGreaterThan(1);

  const shown = await shownPlan(page);
  expect(shown.months).toBe(60);
  expect(shown.payback).toBe(String(api.plan.payback_month));
  expect(shown.npvRent).toBeCloseTo(api.plan.npv_usd.rent, 4);
  expect(shown.npvSelf).toBeCloseTo(api.plan.npv_usd.self_host, 4);

  // The decision block says it: the answer over five years and the payback month.
  const verdict = page.getByTestId("horizon-verdict");
  await expect(verdict).toHaveAttribute("data-best", api.plan.best);
  await expect(verdict).toContainText(`pays back in month ${api.plan.payback_month}`);
  if (api.plan.best !== api.verdict.best) await expect(verdict).toContainText("the answer changes");

  // The chart is drawn, and its numbers are the API's months summed.
  const years = page.getByTestId("years");
  await expect(years.getByTestId("chart-years").locator("svg")).toBeVisible();
  await years.getByTestId("chart-years").locator("summary").click();
  const sum = (key: "rent_usd" | "self_host_usd", upTo: number) =>
    api.plan.months.slice(0, upTo).reduce((a: number, m: Record<string, number>) => a + m[key], 0);
  const last = years.locator("tr[data-month='60']");
  await expect(last).toContainText(dollars(sum("rent_usd", 60)));
  await expect(last).toContainText(dollars(sum("self_host_usd", 60)));
  const payback = years.locator(`tr[data-month='${api.plan.payback_month}']`);
  await expect(payback).toContainText(dollars(sum("self_host_usd", api.plan.payback_month)));
  await expect(years.getByTestId("years-npv")).toContainText(dollars(api.plan.npv_usd.self_host));

  // Two years instead: the plan shortens with it, still the API's.
  await page.getByLabel(/^Years ahead/).fill("2");
  await apply(page, javaScriptEnabled);
  await expect(page).toHaveURL(/horizon=2/);
  await settled(page);
  const shorter = await apiReport(request, new URL(page.url()).search.replace(/^\?/, ""));
  const now = await shownPlan(page);
  expect(now.months).toBe(24);
  expect(now.npvSelf).toBeCloseTo(shorter.plan.npv_usd.self_host, 4);
  expect(now.payback ?? "").toBe(shorter.plan.payback_month === null ? "" : String(shorter.plan.payback_month));
});

// A horizon out of range is named with its accepted range and loses nothing.
test("a horizon out of range is refused by name", async ({ page, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  await page.getByLabel("Requests per month").fill("2M");
  await page.getByLabel(/^Years ahead/).fill("9");
  await apply(page, javaScriptEnabled);
  await expect(page.getByTestId("error-horizon")).toContainText("1 to 5");
  await expect(page.getByLabel("Requests per month")).toHaveValue("2M");
});
