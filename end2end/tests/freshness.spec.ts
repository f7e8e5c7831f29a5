import { expect, test, type Page } from "@playwright/test";
import { apiReport, apply, ownLink, ready } from "./helpers";

// Prices are as of their source's date, walked through the UI with and without JavaScript: the
// price tiers say which date, a price older than 90 days is named with its age in the warnings
// as the API names it for the page's own link, and a price you type has no age.

/** The page's price_stale warnings, in order. */
async function staleShown(page: Page) {
  return page.getByTestId("warnings").locator("li[data-code=price_stale]").allTextContents();
}

test("each price says its date, an old one is named with its age, your own has none", async ({ page, request, javaScriptEnabled: js }) => {
  await page.goto("/");
  await ready(page, js);
  await page.getByLabel("Requests per month").fill("20M");
  await apply(page, js);
  const api = await apiReport(request, await ownLink(page));
  const stale = api.warnings.filter((w: { code: string }) => w.code === "price_stale");
  const shown = await staleShown(page);
  expect(shown.length).toBe(stale.length);
  stale.forEach((w: { message: string }, i: number) => expect(shown[i]).toContain(w.message));
  // The tier chips of the chip in use say as of which date their price is.
  const tiers = page.locator(".chip-link .tier");
  expect(await tiers.count()).toBeGreaterThan(0);
  for (const text of await tiers.allTextContents()) expect(text).toMatch(/as of \d{4}(-\d{2}){0,2}$/);

  // A GPU-hour price you type has no age: no warning names the GPU-hour price then.
  await page.getByLabel(/^GPU-hour price/).fill("3.5");
  await apply(page, js);
  const own = await apiReport(request, await ownLink(page));
  expect(own.inputs.gpu_hour_usd).toBe(3.5);
  const ownStale = own.warnings.filter((w: { code: string }) => w.code === "price_stale");
  expect(ownStale.some((w: { message: string }) => w.message.startsWith("The GPU-hour price"))).toBe(false);
  const after = await staleShown(page);
  expect(after.length).toBe(ownStale.length);
  expect(after.some((t) => t.startsWith("The GPU-hour price"))).toBe(false);
});
