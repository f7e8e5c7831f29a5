import { expect, test, type Page } from "@playwright/test";
import { apiReport, apply, ready } from "./helpers";

/** Sets the monthly requests in the calculator's form and saves the scenario under `name`. */
async function saveScenario(page: Page, js: boolean | undefined, requests: string, name: string) {
  await page.goto("/");
  await ready(page, js);
  await page.getByLabel("Requests per month").fill(requests);
  await apply(page, js);
  await expect(page).toHaveURL(new RegExp(`requests=${requests}`));
  await ready(page, js);
  await page.locator("#save-name").fill(name);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/s\/[0-9A-Za-z]{12}$/);
  return page.url();
}

// A finance lead keeps two saved scenarios for a decision document, this year's volume and next
// year's. From the second one's page they follow "Compare with another scenario…", paste the
// first one's link, and read both answers side by side: each side's totals are its saved
// report's, and the inputs that differ name the volume.
test("two saved scenarios compared side by side from a saved page", async ({ page, request, javaScriptEnabled }) => {
  const project = test.info().project.name;
  const thisYear = await saveScenario(page, javaScriptEnabled, "20M", `This year ${project}`);
  await saveScenario(page, javaScriptEnabled, "60M", `Next year ${project}`);
  const nextId = page.url().split("/s/")[1];
  const thisId = thisYear.split("/s/")[1];

  await page.getByTestId("compare-link").click();
  await expect(page).toHaveURL(/\/compare\?a=/);
  await expect(page.getByLabel(/^Scenario A/)).toHaveValue(nextId);
  await page.getByLabel(/^Scenario B/).fill(thisYear);
  await page.getByRole("button", { name: "Compare", exact: true }).click();
  await expect(page.getByTestId("comparison")).toBeVisible();

  for (const [key, id, name] of [["a", nextId, `Next year ${project}`], ["b", thisId, `This year ${project}`]]) {
    const saved = await (await request.get(`/api/v1/scenarios/${id}`)).json();
    const side = page.getByTestId(`side-${key}`);
    await expect(side).toContainText(name);
    expect(Number(await side.getAttribute("data-rent"))).toBeCloseTo(saved.report.rent.monthly_usd, 4);
    expect(Number(await side.getAttribute("data-self"))).toBeCloseTo(saved.report.self_host.monthly_usd, 4);
    await expect(side).toHaveAttribute("data-best", saved.report.verdict.best);
  }
  const differing = page.getByTestId("differing-inputs");
  await expect(differing).toContainText("Requests per month");
  // Values in force as the page writes figures, not as the link does.
  await expect(differing).toContainText("60\u00a0M requests/month");
  await expect(differing).toContainText("20\u00a0M requests/month");
  await expect(page.getByTestId("chart-compare").locator("svg")).toBeVisible();

  // Each side opens where it came from.
  await page.getByTestId("open-b").click();
  await expect(page).toHaveURL(new RegExp(`/s/${thisId}$`));
});

// From the calculator: "Compare with another scenario…" carries the page's own link as A; a
// mistyped B is named with its accepted range, and A stays.
test("the calculator compares its scenario with a link, and names a bad side", async ({ page, request, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  await page.getByLabel("Requests per month").fill("40M");
  await apply(page, javaScriptEnabled);
  await expect(page).toHaveURL(/requests=40M/);
  await ready(page, javaScriptEnabled);
  const own = new URL(page.url()).search.replace(/^\?/, "");
  await page.getByTestId("compare-link").click();
  await expect(page).toHaveURL(/\/compare\?a=/);

  await page.getByLabel(/^Scenario B/).fill("requests=40M&horizon=9");
  await page.getByRole("button", { name: "Compare", exact: true }).click();
  await expect(page.getByTestId("side-b-error")).toContainText("horizon");
  await expect(page.getByTestId("side-b-error")).toContainText("1 to 5");
  await expect(page.getByTestId("side-a")).toHaveCount(0);

  await page.getByLabel(/^Scenario B/).fill("requests=40M&gpu_hour=2.1");
  await page.getByRole("button", { name: "Compare", exact: true }).click();
  const a = await apiReport(request, own);
  const b = await apiReport(request, "requests=40M&gpu_hour=2.1");
  expect(Number(await page.getByTestId("side-a").getAttribute("data-self"))).toBeCloseTo(a.self_host.monthly_usd, 4);
  expect(Number(await page.getByTestId("side-b").getAttribute("data-self"))).toBeCloseTo(b.self_host.monthly_usd, 4);
  await expect(page.getByTestId("differing-inputs")).toContainText("GPU-hour price");
});
