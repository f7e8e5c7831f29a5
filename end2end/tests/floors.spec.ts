import { expect, test } from "@playwright/test";
import { apiReport, pageNumbers, ready } from "./helpers";

// Typed through the form, with and without JavaScript: a number between 0 and a token a month is
// refused at its field, with the floor in the page's number format, and the last valid result
// stays; the API refuses the page's own link by the same field. A blank field means "not given":
// the default applies, as in the API.
test("a meaningless tiny volume is refused at its field and the result stays", async ({ page, request, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  const before = await pageNumbers(page);
  const field = page.getByLabel("Requests per month");
  await field.fill("1e-300");
  await field.press("Enter");
  await expect(page).toHaveURL(/requests=1e-300/);
  await expect(page.getByTestId("error-requests")).toContainText(
    "0, or a number from 1 to 10 T requests/month",
  );
  const after = await pageNumbers(page);
  const api = await apiReport(request, "");
  expect(after.selfHost).toBeCloseTo(api.self_host.monthly_usd, 6);
  expect(after.rent).toBeCloseTo(before.rent, 6);
  const query = new URL(page.url()).search.slice(1);
  const refused = await request.get(`/api/v1/evaluate?${query}`);
  expect(refused.status()).toBe(400);
  expect((await refused.json()).problems.map((p: { param: string }) => p.param)).toEqual(["requests"]);
});

test("a blank field means not given: the default applies", async ({ page, request, javaScriptEnabled }) => {
  await page.goto("/?requests=40M");
  await ready(page, javaScriptEnabled);
  const field = page.getByLabel("Requests per month");
  await field.fill("");
  await field.press("Enter");
  await expect(page).not.toHaveURL(/requests=40M/);
  await expect(page.getByTestId("problems")).toHaveCount(0);
  const shown = await pageNumbers(page);
  const api = await apiReport(request, "");
  expect(shown.rent).toBeCloseTo(api.rent.monthly_usd, 6);
  expect(shown.selfHost).toBeCloseTo(api.self_host.monthly_usd, 6);
});
