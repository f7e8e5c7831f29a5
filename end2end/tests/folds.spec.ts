import { expect, test } from "@playwright/test";
import { apiReport, apply, failOnConsoleErrors, hydrated, ownLink, pageNumbers, ready, unfold } from "./helpers";

// The form's folded sections (your own prices, fleet, operations, assumptions, the ranges drawn)
// are not sent with the page: their fields are made when a person opens one. With JavaScript
// that is the opening itself; without, the section's button sends the form, what was typed
// elsewhere included, and the server answers with the section open. Either way the operations
// staff typed there give the API's bills for the page's own link.
test("a folded section's fields arrive when it opens, and nothing typed is lost", async ({ page, request, javaScriptEnabled: js }) => {
  failOnConsoleErrors(page);
  await page.goto("/");
  await ready(page, js);
  const operations = page.locator("details#fold-operations");
  // As served: the summary, no field.
  await expect(operations.locator("summary")).toHaveText("Operations");
  await expect(page.getByLabel("Operations staff")).toHaveCount(0);
  await expect(page.getByLabel(/^Range of the GPU-hour price/)).toHaveCount(0);
  // Typed, not yet sent.
  await page.getByLabel("Requests per month").fill("30M");
  await unfold(page, "Operations", js);
  await expect(operations).toHaveAttribute("open", "");
  await expect(page.getByLabel("Requests per month")).toHaveValue("30M");
  await page.getByLabel("Operations staff").fill("2");
  await apply(page, js);
  const query = await ownLink(page);
  expect(query).toContain("requests=30M");
  expect(query).toContain("ops_fte=2");
  expect(query).not.toContain("open=");
  const api = await apiReport(request, query);
  // Two FTE where the default is half of one: four times the staff's monthly cost.
  const before = await apiReport(request, "requests=30M");
  expect(api.inputs.ops_monthly_usd).toBeCloseTo(4 * before.inputs.ops_monthly_usd, 6);
  const shown = await pageNumbers(page);
  expect(shown.rent).toBeCloseTo(api.rent.monthly_usd, 6);
  expect(shown.selfHost).toBeCloseTo(api.self_host.monthly_usd, 6);
  // The page's own link serves the section open, for the value of its own, with its field.
  await page.goto(`/?${query}`);
  await ready(page, js);
  await expect(operations).toHaveAttribute("open", "");
  await expect(page.getByLabel("Operations staff")).toHaveValue("2");
  // The other folded sections are still only their summaries.
  await expect(page.getByLabel(/^Range of the GPU-hour price/)).toHaveCount(0);
});

// The page a section's button answers with (its link names the section) is taken over by the
// browser as served: the section open with its fields, and the address bar back to the
// scenario's own link.
test("the page a section's button answers with hydrates with that section open", async ({ page, browser, javaScriptEnabled: js }) => {
  test.skip(js !== false, "the button is what a page without JavaScript follows");
  await page.goto("/");
  await unfold(page, "Fleet", js);
  expect(page.url()).toContain("open=fleet");
  const live = await browser.newContext({ javaScriptEnabled: true });
  const opened = await live.newPage();
  failOnConsoleErrors(opened);
  await opened.goto(page.url());
  await hydrated(opened);
  await expect(opened.locator("details#fold-fleet")).toHaveAttribute("open", "");
  await expect(opened.getByLabel("Sizing")).toBeVisible();
  await expect(opened).not.toHaveURL(/open=/);
  await live.close();
});

// Enter in a field still means "Update" when a folded section shows its button: the form's
// default button comes first, so the section is not what the form asks for.
test("Enter in a field updates, with a folded section open", async ({ page, javaScriptEnabled: js }) => {
  test.skip(js !== false, "without JavaScript the form is sent by Enter");
  await page.goto("/");
  await page.locator("details#fold-fleet > summary").click();
  await expect(page.locator("details#fold-fleet").getByTestId("fold-open")).toBeVisible();
  await page.getByLabel("Requests per month").fill("25M");
  await page.getByLabel("Requests per month").press("Enter");
  await page.waitForLoadState("domcontentloaded");
  expect(page.url()).toContain("requests=25M");
  expect(page.url()).not.toContain("open=");
  await expect(page.locator("details#fold-fleet")).not.toHaveAttribute("open", "");
});
