import { expect, test } from "@playwright/test";
import { apiReport, apply, ownLink, ready, settled } from "./helpers";

// The finance lead reads what would change the default answer along the volume: a band with
// how far it lasts, not a threshold, and the break-even section's map of where each plan is
// cheapest. Both read the same band edges as the JSON API for the page's own link.

test("what would change it and the break-even read the same bands as the API", async ({ page, request, javaScriptEnabled: js }) => {
  await page.goto("/");
  await ready(page, js);
  // The default workload, typed in as a person would: a million agent requests a month.
  await page.getByLabel("Requests per month").fill("1M");
  await apply(page, js);
  await settled(page);
  const query = await ownLink(page);
  const api = await apiReport(request, query);
  const bands: { from: number; to: number; best: string; ties: string[] }[] = api.bands.volume;
  expect(bands.length).toBeGreaterThan(3);
  const edges = new Set<number>(bands.flatMap((b) => [b.from, b.to]));
  const isEdge = (v: number) => [...edges].some((e) => Math.abs(e / v - 1) < 1e-12);

  // "What would change it": the volume's change is a band of the map, with where it ends.
  const volume = api.flips.flips.filter((f: any) => f.param === "volume");
  expect(volume.length).toBeGreaterThan(0);
  for (const f of volume) {
    const li = page.locator(`li.flip[data-param="volume"][data-direction="${f.direction}"]`);
    await expect(li).toHaveCount(1);
    const value = Number(await li.getAttribute("data-value"));
    expect(value / f.value).toBeCloseTo(1, 12);
    expect(isEdge(value)).toBe(true);
    if (f.until !== null) {
      const until = Number(await li.getAttribute("data-until"));
      expect(until / f.until).toBeCloseTo(1, 12);
      expect(isEdge(until)).toBe(true);
      await expect(li).toContainText("volume from");
    }
    if (f.reliably_from !== null) {
      expect(Number(await li.getAttribute("data-reliably")) / f.reliably_from).toBeCloseTo(1, 12);
      await expect(li).toContainText("is never cheapest again");
    }
  }
  // The default answer: renting, with self-hosting cheaper in a band just short of 100 B.
  const above = volume.find((f: any) => f.direction === "above");
  expect(above.to).toBe("self_host");
  expect(above.until).not.toBeNull();

  // The break-even section lists the bands a decision can rest on, each edge an edge of the
  // API's map, and says above which volume renting never wins again.
  const listed = page.getByTestId("volume-bands").locator("li");
  await expect(listed.first()).toBeVisible();
  expect(await listed.count()).toBeGreaterThan(1);
  for (const li of await listed.all()) {
    expect(isEdge(Number(await li.getAttribute("data-from")))).toBe(true);
    expect(isEdge(Number(await li.getAttribute("data-to")))).toBe(true);
  }
  const holdsRent = (b: { best: string; ties: string[] }) => b.best === "rent" || b.ties.includes("rent");
  const lastRent = bands.map(holdsRent).lastIndexOf(true);
  const never = page.getByTestId("rent-never-again");
  expect(Number(await never.getAttribute("data-tokens")) / bands[lastRent].to).toBeCloseTo(1, 12);
  expect(Number(await never.getAttribute("data-tokens")) / above.reliably_from).toBeCloseTo(1, 12);
});

test("a reserved fleet's commitment past the horizon is on the books", async ({ page, request, javaScriptEnabled: js }) => {
  await page.goto("/");
  await ready(page, js);
  await page.getByLabel("Requests per month").fill("40M");
  await page.getByLabel(/^Years ahead/).fill("2");
  await apply(page, js);
  await settled(page);
  const api = await apiReport(request, await ownLink(page));
  expect(api.plan.holding).toBe("term");
  expect(api.plan.committed_after_usd.self_host).toBeGreaterThan(0);
  const row = page.getByTestId("years-committed");
  expect(Number(await row.getAttribute("data-self"))).toBeCloseTo(api.plan.committed_after_usd.self_host, 4);
  const withCommitments = page.getByTestId("years-npv-committed");
  expect(Number(await withCommitments.getAttribute("data-self"))).toBeCloseTo(api.plan.npv_with_commitments_usd.self_host, 4);
  await expect(page.getByTestId("horizon-verdict")).toContainText("Past the horizon self-hosting is still committed to");
  // The caveat names the commitment's size and term.
  const caveat = api.warnings.find((w: any) => w.code === "reserved_term");
  expect(caveat.message).toContain("for 36 months");
});
