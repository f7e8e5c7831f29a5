import { expect, test, type Page } from "@playwright/test";
import { apiReport, apply, ownLink, ready, unfold } from "./helpers";

/** The bills the page shows, for comparison with the API's. */
async function bills(page: Page) {
  return {
    rent: Number(await page.getByTestId("rent-monthly").getAttribute("data-usd")),
    self: Number(await page.getByTestId("self-monthly").getAttribute("data-usd")),
  };
}

// An infra lead whose traffic peaks at three times its average on weekday office hours sets that
// shape by hand: the select's "peak hours" entry and three fields. The page then sizes the fleet
// for a 3x peak, draws the week against the capacity held, and shows the API's bills for its own
// link.
test("the profile editor sets a 3x peak by hand", async ({ page, request, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  await page.getByLabel("Requests per month").fill("20M");
  await page.getByRole("combobox", { name: "Load over the week" }).selectOption("peak");
  await page.getByText("Set the shape by hand").click();
  await page.getByLabel("Peak, times the average").fill("3");
  await page.getByLabel("From hour").fill("9");
  await page.getByLabel("To hour").fill("17");
  await expect(page.getByLabel("Weekdays only (Monday to Friday)")).toBeChecked();
  await apply(page, javaScriptEnabled);
  const query = await ownLink(page);
  expect(query).toContain("profile=peak%3A3%3A9-17%3Aweekdays");
  const api = await apiReport(request, query);
  // 40 weekday hours at 3x the average: the busiest hour is 3x, exactly.
  expect(api.inputs.profile_peak).toBeCloseTo(3, 12);
  await expect(page.getByTestId("load-week")).toContainText("Peak hour: 3× the average.");
  const shown = await bills(page);
  expect(shown.rent).toBeCloseTo(api.rent.monthly_usd, 6);
  expect(shown.self).toBeCloseTo(api.self_host.monthly_usd, 6);
  // The capacity held, drawn and said: GPUs paid for over GPUs busy, the API's figures.
  const held = api.self_host.provisioned_gpu_hours / api.self_host.busy_gpu_hours;
  expect(held).toBeGreaterThan(3);
  await expect(page.locator("[data-testid=load-week] svg line.capacity")).toHaveCount(1);
  const said = (await page.getByTestId("load-week").innerText()).match(/The fleet holds ([\d.]+)× the average/);
  expect(said, "the capacity is said").not.toBeNull();
  expect(Math.abs(Number(said![1]) / held - 1)).toBeLessThan(0.005);
  // The same shape typed as 24 weights (a day, repeated) is a different week: every day peaks.
  await page.getByRole("combobox", { name: "Load over the week" }).selectOption("custom");
  await page.getByLabel("Your weights").fill("1 1 1 1 1 1 1 1 1\n3 3 3 3 3 3 3 3\n1 1 1 1 1 1 1");
  await apply(page, javaScriptEnabled);
  const typed = await ownLink(page);
  expect(typed).toContain("profile=1,1,1,1,1,1,1,1,1,3,3,3,3,3,3,3,3,1,1,1,1,1,1,1");
  const daily = await apiReport(request, typed);
  // Eight hours of 24 at 3, the rest at 1: peak 3 / (40 / 24).
  expect(daily.inputs.profile_peak).toBeCloseTo(1.8, 12);
  expect((await bills(page)).self).toBeCloseTo(daily.self_host.monthly_usd, 6);
});

test("a peak the week cannot hold is refused by name, with its range", async ({ page, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  await page.getByRole("combobox", { name: "Load over the week" }).selectOption("peak");
  await page.getByText("Set the shape by hand").click();
  await page.getByLabel("Peak, times the average").fill("5");
  await apply(page, javaScriptEnabled);
  // 40 peak hours of 168 hold at most 4.2 times the average.
  await expect(page.getByTestId("error-profile")).toContainText("it must be from 1 to 4.2");
  // What was typed stays on screen beside the reason: the choice and the factor.
  await expect(page.getByRole("combobox", { name: "Load over the week" })).toHaveValue("peak");
  await expect(page.getByLabel("Peak, times the average")).toHaveValue("5");
});

test("an overnight peak keeps its hours when only the factor changes", async ({ page, request, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  await page.getByRole("combobox", { name: "Load over the week" }).selectOption("peak");
  await page.getByText("Set the shape by hand").click();
  await page.getByLabel("Peak, times the average").fill("2");
  await page.getByLabel("From hour").fill("22");
  await page.getByLabel("To hour").fill("6");
  await page.getByLabel("Weekdays only (Monday to Friday)").uncheck();
  await apply(page, javaScriptEnabled);
  expect(await ownLink(page)).toContain("profile=peak%3A2%3A22-6");
  await page.getByLabel("Peak, times the average").fill("2.5");
  await apply(page, javaScriptEnabled);
  const query = await ownLink(page);
  expect(query).toContain("profile=peak%3A2.5%3A22-6");
  // Eight night hours a day at 2.5x the average.
  const api = await apiReport(request, query);
  expect(api.inputs.profile_peak).toBeCloseTo(2.5, 12);
});

// A finance lead whose traffic grows 8 % a month types it so: the plan compounds it to 151.8 % a
// year, says both, and shows the API's plan for the page's own link.
test("growth typed as 8 %/month gives the API's plan", async ({ page, request, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  await page.getByLabel("Requests per month").fill("2M");
  await page.getByLabel(/^Growth of the monthly volume/).fill("8 %/month");
  await page.getByLabel(/^Years ahead/).fill("3");
  await apply(page, javaScriptEnabled);
  await expect(page.getByTestId("rate-growth")).toContainText("151.8\u00a0% a year (8\u00a0% a month)");
  const query = await ownLink(page);
  expect(query).toContain("growth=8%25%2Fmonth");
  const api = await apiReport(request, query);
  const months = api.plan.months;
  expect(months).toHaveLength(36);
  // Each month 8 % more tokens than the last.
  for (const m of [1, 12, 30]) expect(months[m].tokens / months[m - 1].tokens).toBeCloseTo(1.08, 9);
  // The same growth typed per year is the same plan.
  const yearly = await apiReport(request, query.replace("growth=8%25%2Fmonth", "growth=151.81701168189798%25"));
  expect(yearly.plan.npv_usd.self_host).toBeCloseTo(api.plan.npv_usd.self_host, 2);
  const years = page.getByTestId("years");
  expect(Number(await years.getAttribute("data-npv-self"))).toBeCloseTo(api.plan.npv_usd.self_host, 6);
  expect(Number(await years.getAttribute("data-npv-rent"))).toBeCloseTo(api.plan.npv_usd.rent, 6);
});

// A finance lead whose invoice shows a fifth of the tokens sent through the provider's batch
// API at half price types both: renting is priced at 90 % of list, and the bill says how the
// own fleet serves the batch work, the API's figures for the page's own link.
test("batch traffic typed on the form is priced as batch on both sides", async ({ page, request, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  await page.getByLabel("Requests per month").fill("20M");
  await apply(page, javaScriptEnabled);
  const before = await apiReport(request, await ownLink(page));
  await page.getByLabel(/^Share of the tokens sent as batch traffic/).fill("20%");
  await unfold(page, "Your own prices", javaScriptEnabled);
  await page.getByLabel(/^API discount on batch tokens/).fill("50%");
  await apply(page, javaScriptEnabled);
  const query = await ownLink(page);
  expect(query).toContain("batch=0.2");
  const api = await apiReport(request, query);
  expect(api.rent.monthly_usd).toBeCloseTo(before.rent.monthly_usd * 0.9, 6);
  const shown = await bills(page);
  expect(shown.rent).toBeCloseTo(api.rent.monthly_usd, 6);
  expect(shown.self).toBeCloseTo(api.self_host.monthly_usd, 6);
  const saving = `$${Math.round(api.batch.rent_saving_usd).toLocaleString("en-US")} a month less`;
  await expect(page.getByTestId("batch-note")).toContainText(saving);
  await expect(page.getByTestId("batch-note")).toContainText("the curve's most efficient point");
});
