import { expect, test } from "@playwright/test";
import { apiReport, ready } from "./helpers";

// With and without JavaScript the save form posts, and the short link shows the pinned numbers.
test("saving gives a short link that shows the same numbers", async ({ page, request, javaScriptEnabled }) => {
  await page.goto("/?requests=30M&gpu_hour=2.8");
  await ready(page, javaScriptEnabled);
  await page.locator("#save-name").fill(`Budget ${test.info().project.name}`);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/s\/[0-9A-Za-z]{12}$/);
  await expect(page.getByTestId("saved-name")).toHaveText(`Budget ${test.info().project.name}`);
  const api = await apiReport(request, "requests=30M&gpu_hour=2.8");
  const rent = Number(await page.getByTestId("rent-monthly").getAttribute("data-usd"));
  expect(rent).toBeCloseTo(api.rent.monthly_usd, 6);
  const id = page.url().split("/s/")[1];
  const saved = await (await request.get(`/api/v1/scenarios/${id}`)).json();
  expect(saved.report.self_host.monthly_usd).toBeCloseTo(api.self_host.monthly_usd, 6);

  // The saved page's embed snippet is pinned to it: framed as a wiki would, it shows the saved numbers.
  const snippet = await page.getByTestId("pinned-embed-code").inputValue();
  const src = snippet.match(/src="([^"]+)"/)?.[1] ?? "";
  expect(new URL(src).pathname).toBe(`/embed/s/${id}`);
  await page.setContent(`<iframe src="${new URL(new URL(src).pathname, page.url())}" width="600" height="400"></iframe>`);
  const frame = page.frameLocator("iframe");
  await expect(frame.getByTestId("embed")).toBeVisible();
  const framedRent = Number(await frame.getByTestId("rent-monthly").getAttribute("data-usd"));
  expect(framedRent).toBeCloseTo(saved.report.rent.monthly_usd, 6);
});
