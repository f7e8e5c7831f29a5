import { expect, test, type Page } from "@playwright/test";
import { apiReport, failOnConsoleErrors, hydrated, ownLink, pageNumbers } from "./helpers";

// The first download is what the calculator needs to take the page over and recompute; the
// charts' drawing code is a module of its own, fetched when the browser first draws a chart
// (after an edit, or a pointer over a chart). The charts the page was served with need none.

const CHARTS = ["chart-volume", "chart-classes", "chart-breakdown", "chart-tps", "chart-tornado", "chart-years"];
const LATER = /\/pkg\/servecost-[0-9a-f]{16}-split_servecost_charts\.wasm$/;

function watchModules(page: Page) {
  const fetched: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/pkg/") && r.url().endsWith(".wasm")) fetched.push(r.url());
  });
  return fetched;
}

test("the charts' code arrives with the first chart drawn after an edit, once, and draws the API's figures", async ({ page, request }) => {
  const noErrors = failOnConsoleErrors(page);
  const fetched = watchModules(page);
  await page.goto("/");
  await hydrated(page);
  // Taken over without the charts' code: the charts on screen are the server's.
  expect(fetched.filter((u) => LATER.test(u))).toEqual([]);
  expect(fetched).toHaveLength(1);
  for (const id of CHARTS) await expect(page.getByTestId(id).locator(".svg")).not.toHaveAttribute("data-drawn");

  await page.getByLabel("Requests per month").fill("60M");
  for (const id of CHARTS) await expect(page.getByTestId(id).locator(".svg")).toHaveAttribute("data-drawn", "browser");
  expect(fetched.filter((u) => LATER.test(u))).toHaveLength(1);

  // A second edit draws again with the module already there.
  await page.getByLabel("Requests per month").fill("80M");
  await expect.poll(() => new URL(page.url()).searchParams.get("requests")).toBe("80M");
  const query = await ownLink(page);
  const api = await apiReport(request, query);
  const shown = await pageNumbers(page);
  expect(shown.rent).toBeCloseTo(api.rent.monthly_usd, 6);
  const titles = page.getByTestId("chart-breakdown").locator("g.chart-hover title");
  await expect.poll(async () => (await titles.allTextContents()).find((t) => t.startsWith("Rent"))).toBe(
    `Rent: $${Math.round(api.rent.monthly_usd).toLocaleString("en-US")} a month`,
  );
  // The browser's drawing is the one the server exports for the same link, value for value.
  const exported = await (await request.get(`/api/v1/charts/volume.svg?${query}`)).text();
  const served = [...exported.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]);
  const drawn = await page.getByTestId("chart-volume").locator("g.chart-hover title").allTextContents();
  expect(drawn.length).toBeGreaterThan(10);
  expect(drawn).toEqual(served.slice(served.length - drawn.length));
  expect(fetched.filter((u) => LATER.test(u))).toHaveLength(1);
  noErrors();
});

test("when the charts' code cannot be fetched the page says so, keeps recomputing, and draws on the next try", async ({ page, request }) => {
  let refuse = true;
  await page.route(LATER, (route) => (refuse ? route.abort() : route.continue()));
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/");
  await hydrated(page);
  await page.getByLabel("Requests per month").fill("70M");
  const figure = page.getByTestId("chart-breakdown").locator(".svg");
  await expect(figure).toContainText("The chart could not be drawn");
  // Still live: the numbers follow the next edit.
  await page.getByLabel("Requests per month").fill("90M");
  await expect.poll(() => new URL(page.url()).searchParams.get("requests")).toBe("90M");
  const api = await apiReport(request, await ownLink(page));
  expect((await pageNumbers(page)).rent).toBeCloseTo(api.rent.monthly_usd, 6);
  // The network is back: a pointer over the chart draws it.
  refuse = false;
  await figure.scrollIntoViewIfNeeded();
  await figure.hover();
  await expect(figure).toHaveAttribute("data-drawn", "browser");
  await expect(figure.locator("svg")).toHaveCount(1);
  expect(errors).toEqual([]);
});
