import { expect, test } from "@playwright/test";
import { apiReport, failOnConsoleErrors, hydrated } from "./helpers";

// The server sends the calculator's charts without hover targets; the browser draws a chart's
// when a pointer first comes over it, and their values are the API's.
test("a chart's hover values appear when the pointer comes over it", async ({ page, request }) => {
  const noErrors = failOnConsoleErrors(page);
  await page.goto("/");
  await hydrated(page);
  // No edit: the charts on screen are still the ones the server sent.
  await expect(page.locator("g.chart-hover")).toHaveCount(0);
  const chart = page.getByTestId("chart-breakdown").locator(".svg");
  await chart.scrollIntoViewIfNeeded();
  const box = await chart.boundingBox();
  expect(box).not.toBeNull();
  await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
  const titles = chart.locator("g.chart-hover title");
  await expect(titles.first()).toBeAttached();
  const query = new URL(page.url()).search.replace(/^\?/, "");
  const api = await apiReport(request, query);
  const rent = (await titles.allTextContents()).find((t) => t.startsWith("Rent"));
  const dollars = Math.round(api.rent.monthly_usd).toLocaleString("en-US");
  expect(rent).toBe(`Rent: $${dollars} a month`);
  noErrors();
});
