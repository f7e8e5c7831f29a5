import { expect, test } from "@playwright/test";
import { apiReport, pageNumbers, ready, settled } from "./helpers";

// A finance lead with 40 M requests a month asks what else there is: every way to serve the
// workload, ranked. They open the section (ranked in place by the browser; without JavaScript
// it links to the ranking on a page of its own), follow the cheapest option one can buy, and
// land on the calculator with that plan, whose total is the ranking's.
test("the options section ranks every way to serve the workload and opens the cheapest", async ({ page, request, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  const field = page.getByLabel("Requests per month");
  await field.fill("40M");
  await field.press("Enter");
  await expect(page).toHaveURL(/requests=40M/);
  if (javaScriptEnabled) await settled(page);
  const own = new URL(page.url()).search.replace(/^\?/, "");

  let section = page.getByTestId("options");
  // The page as served ranks nothing: the ranking prices every option with its own sample.
  await expect(section.getByTestId("option")).toHaveCount(0);
  await section.locator("summary").click();
  if (!javaScriptEnabled) {
    await section.getByTestId("options-link").getByRole("link").click();
    await page.waitForURL((url) => url.pathname === "/options");
    // The ranking's link is the page's scenario (in its canonical form).
    const linked = new URL(page.url()).search.replace(/^\?/, "");
    expect((await apiReport(request, linked)).query).toBe((await apiReport(request, own)).query);
    section = page.getByTestId("options");
  }
  const rows = section.getByTestId("option");
  await expect(rows.first()).toBeVisible();
  if (javaScriptEnabled) {
    // Open, the section stays open while the inputs change and its rows follow them.
    const before = await rows.first().getAttribute("data-usd");
    await field.fill("41M");
    await settled(page);
    await expect.poll(() => rows.first().getAttribute("data-usd")).not.toBe(before);
    await expect(section).toHaveAttribute("open", "");
    await field.fill("40M");
    await settled(page);
    await expect(page).toHaveURL(/requests=40M/);
  }

  // The page's ranking is the API's for the page's own link: same rows, same order, same totals.
  const api = await (await request.get(`/api/v1/options?${own}`)).json();
  await expect(rows).toHaveCount(api.options.length);
  const shown = await rows.evaluateAll((trs) =>
    trs.map((tr) => ({
      usd: Number(tr.getAttribute("data-usd")),
      forRent: tr.getAttribute("data-for-rent") === "true",
      current: tr.getAttribute("data-current") === "true",
      sure: tr.querySelector("[data-testid=option-sure]")?.getAttribute("data-p") ?? "",
    })),
  );
  for (const [i, o] of api.options.entries()) {
    expect(shown[i].usd).toBeCloseTo(o.monthly_usd, 6);
    expect(shown[i].forRent).toBe(o.for_rent);
    expect(shown[i].current).toBe(o.current);
    // How sure each option is: the API's share, present for every ranked option.
    if (o.group === "floor") {
      expect(o.p_cheapest).toBeNull();
    } else {
      expect(o.p_cheapest).not.toBeNull();
      expect(Number(shown[i].sure)).toBeCloseTo(o.p_cheapest, 9);
    }
  }
  // Ranked cheapest first; the rows listed apart follow, each group cheapest first.
  const groups = api.options.map((o: any) => o.group);
  for (let i = 1; i < shown.length; i++) {
    if (groups[i] === groups[i - 1]) expect(shown[i].usd).toBeGreaterThanOrEqual(shown[i - 1].usd);
  }
  // The scenario's own plans are marked in the table.
  await expect(section.locator("tr.current").first()).toContainText("(yours)");

  // What one can rent or buy is ranked first: the first row is the API's first, a buyable one.
  expect(api.options[0].group).toBe("buyable");
  await expect(rows.first()).toHaveAttribute("data-group", "buyable");
  expect(Number(await rows.first().getAttribute("data-usd"))).toBeCloseTo(api.options[0].monthly_usd, 6);
  // The joint sample's shares add up to all of its draws.
  const total = api.options.reduce((sum: number, o: any) => sum + (o.p_cheapest ?? 0), 0);
  expect(total).toBeCloseTo(1, 9);
  // Follow the cheapest option one can rent or buy.
  const cheapest = api.options.find((o) => o.for_rent);
  const row = rows.nth(api.options.indexOf(cheapest));
  await row.getByTestId("option-link").click();
  await page.waitForURL((url) => url.search.replace(/^\?/, "") === cheapest.query);
  await ready(page, javaScriptEnabled);
  const report = await apiReport(request, cheapest.query);
  const numbers = await pageNumbers(page);
  const line = { rent: report.rent, self_host: report.self_host, hybrid: report.hybrid }[cheapest.kind];
  expect(line.monthly_usd).toBeCloseTo(cheapest.monthly_usd, 6);
  expect(numbers.rent).toBeCloseTo(report.rent.monthly_usd, 6);
  expect(numbers.selfHost).toBeCloseTo(report.self_host.monthly_usd, 6);
  expect(await page.getByLabel("Requests per month").inputValue()).toBe("40M");

  // The same ranking downloads as CSV.
  const csv = await (await request.get(`/api/v1/options.csv?${own}`)).text();
  expect(csv.trim().split("\n")).toHaveLength(api.options.length + 1);
});
