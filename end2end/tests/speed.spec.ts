import { expect, test, type Page } from "@playwright/test";
import { apiReport, apply, chooseModel, ownLink, ready } from "./helpers";

/** Opens the calculator and chooses `model` in its form, as a person would. */
async function openOn(page: Page, model: string, js: boolean | undefined) {
  await page.goto("/");
  await ready(page, js);
  await chooseModel(page, model, js);
}

// An infra lead whose users need 50 tokens/s (gpt-oss-120b) or 40 (DeepSeek-R1) types the speed.
// Both models open on an MLPerf Server curve measured only at the benchmark's floor: the page
// keeps renting's bill and the verdict, prices self-hosting on the cheapest of the model's
// curves that reach the speed, and lists them; the figures are the API's for the page's link.
for (const [model, tps] of [
  ["gpt-oss-120b", "50"],
  ["deepseek-r1", "40"],
] as const) {
  test(`${model} at ${tps} tokens/s per user keeps the rent figure and a verdict`, async ({ page, request, javaScriptEnabled }) => {
    await openOn(page, model, javaScriptEnabled);
    // The hint says where the default speed comes from: an assumption where no offer states one.
    await expect(page.locator("#f-tps-hint")).toContainText("servecost's assumption");
    await page.getByLabel("Output speed per user to sustain").fill(tps);
    await apply(page, javaScriptEnabled);
    const reach = page.getByTestId("speed-reach");
    await expect(reach).toBeVisible();
    await expect(reach).toHaveAttribute("data-floor", "false");
    await expect(page.getByTestId("verdict")).toContainText("Renting costs");
    await expect(page.getByTestId("verdict")).toContainText("speed not stated");
    const query = await ownLink(page);
    expect(query).toContain(`tps=${tps}`);
    const api = await apiReport(request, query);
    expect(api.speed.target).toBe(Number(tps));
    expect(api.speed.reaching.length).toBeGreaterThan(0);
    const rent = Number(await page.getByTestId("rent-monthly").getAttribute("data-usd"));
    const self = Number(await page.getByTestId("self-monthly").getAttribute("data-usd"));
    expect(rent).toBeCloseTo(api.rent.monthly_usd, 6);
    expect(self).toBeCloseTo(api.self_host.monthly_usd, 6);
    expect(self).toBeCloseTo(api.speed.reaching[0].monthly_usd, 6);
    await expect(page.getByTestId("verdict")).toHaveAttribute("data-winner", api.verdict.winner);
    // The curves that reach the speed, cheapest first, each at the API's figure.
    const listed = reach.getByTestId("reaching-curve");
    await expect(listed).toHaveCount(Math.min(api.speed.reaching.length, 6));
    for (let i = 0; i < (await listed.count()); i++) {
      expect(Number(await listed.nth(i).getAttribute("data-usd"))).toBeCloseTo(api.speed.reaching[i].monthly_usd, 6);
      await expect(listed.nth(i)).toContainText(api.speed.reaching[i].label);
    }
    // Following the second curve prices the workload on it, at the speed, without a floor.
    const second = api.speed.reaching[1];
    await listed.nth(1).getByRole("link").click();
    await page.waitForLoadState("domcontentloaded");
    await ready(page, javaScriptEnabled);
    await expect(page.getByTestId("speed-reach")).toHaveCount(0);
    const there = Number(await page.getByTestId("self-monthly").getAttribute("data-usd"));
    expect(there).toBeCloseTo(second.monthly_usd, 6);
  });
}

// A finance lead checks the gpt-oss-120b ranking: no offer's source states a speed, and each
// says so instead of being counted as meeting the target.
test("gpt-oss-120b's offers say their speed is not stated", async ({ page, request, javaScriptEnabled }) => {
  await openOn(page, "gpt-oss-120b", javaScriptEnabled);
  await page.getByTestId("options").locator("summary").click();
  if (javaScriptEnabled === false) {
    await page.getByRole("link", { name: "rank them" }).click();
    await page.waitForURL(/\/options\?/);
  }
  const rent = page.getByTestId("option").and(page.locator("[data-kind=Rent]"));
  await expect(rent.first()).toBeVisible();
  const n = await rent.count();
  expect(n).toBeGreaterThan(0);
  await expect(rent.getByTestId("option-speed").filter({ hasText: "speed not stated" })).toHaveCount(n);
  await expect(page.getByText("all at your speed target")).toHaveCount(0);
  // The ranking's own link: the calculator's with JavaScript, the ranking page's without.
  const query = javaScriptEnabled === false ? new URL(page.url()).search.slice(1) : await ownLink(page);
  const ranked = await (await request.get(`/api/v1/options?${query}`)).json();
  for (const o of ranked.options) if (o.kind === "rent") expect(o.speed_tps).toBeNull();
});
