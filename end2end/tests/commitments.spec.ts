import { expect, test } from "@playwright/test";
import { apiReport, apply, ownLink, pageNumbers, ready, unfold } from "./helpers";

// GPU-hour prices carry their commitment, walked through the UI with and without JavaScript:
// the default is the 3-year rental (reserved), the owner's cost is offered as what owning at
// hyperscale costs, hourly scaling is refused on both and allowed on a price you declare on
// demand. Each state's numbers are the API's for the page's own link.

test("prices by commitment: reserved by default, the owner's cost as a floor, hourly only on demand", async ({ page, request, javaScriptEnabled: js }) => {
  await page.goto("/");
  await ready(page, js);
  // The default: the 3-year rental, and the page says what it commits to.
  await expect(page.getByTestId("gpu-hour-label")).toContainText("3-year rental, 25 % upfront (July 2026): reserved, 36 months");
  await expect(page.getByTestId("verdict")).toContainText("bills the whole fleet for every hour of its term");
  const reserved = await apiReport(request, await ownLink(page));
  expect(reserved.inputs.gpu_kind).toBe("reserved");
  expect((await pageNumbers(page)).selfHost).toBeCloseTo(reserved.self_host.monthly_usd, 6);

  // Hourly scaling on it is refused at the Sizing field, naming the tier.
  await unfold(page, "Fleet", js);
  await page.getByLabel("Sizing").selectOption("hourly");
  await apply(page, js);
  await expect(page.getByTestId("no-answer")).toContainText("hourly scaling needs an on_demand or spot price");
  await expect(page.getByTestId("no-answer")).toContainText("costr");
  // No figure stays on screen that answers other inputs than those shown.
  await expect(page.getByTestId("rent-monthly")).toHaveCount(0);
  await expect(page.getByTestId("self-monthly")).toHaveCount(0);
  await expect(page.getByTestId("verdict")).toHaveCount(0);
  await page.getByLabel("Sizing").selectOption("fixed");
  await apply(page, js);
  await expect(page.getByTestId("no-answer")).toHaveCount(0);

  // The owner's cost, one click away, is labelled as what owning at hyperscale costs.
  const owner = page.getByRole("link", { name: /what owning at hyperscale costs/ }).first();
  await owner.click();
  await ready(page, js);
  await expect(page.getByTestId("gpu-hour-label")).toContainText("owner's cost, not for rent");
  await expect(page.getByTestId("verdict")).toContainText("an owner's cost at hyperscale, a floor");
  const floor = await apiReport(request, await ownLink(page));
  expect(floor.inputs.gpu_kind).toBe("owner_cost");
  expect(floor.inputs.gpu_hour_usd).toBe(2.26);
  expect((await pageNumbers(page)).selfHost).toBeCloseTo(floor.self_host.monthly_usd, 6);

  // Your own price, declared on demand, may scale hour by hour.
  await page.getByLabel(/^GPU-hour price/).fill("6.5");
  await apply(page, js);
  await expect(page.getByLabel("Your price is")).toHaveValue("on_demand");
  await unfold(page, "Fleet", js);
  await page.getByLabel("Sizing").selectOption("hourly");
  await apply(page, js);
  await expect(page.getByTestId("no-answer")).toHaveCount(0);
  await expect(page.getByTestId("problems")).toHaveCount(0);
  const hourly = await apiReport(request, await ownLink(page));
  expect(hourly.inputs.gpu_kind).toBe("on_demand");
  expect(hourly.inputs.gpu_hour_usd).toBe(6.5);
  expect((await pageNumbers(page)).selfHost).toBeCloseTo(hourly.self_host.monthly_usd, 6);
});
