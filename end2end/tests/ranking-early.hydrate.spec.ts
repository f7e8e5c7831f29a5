import { expect, test } from "@playwright/test";
import { hydrated } from "./helpers";

// An infra lead on a slow line types their volume and opens "Every way to serve this workload,
// ranked" before the page has come alive (the bundle is still on its way). While it loads the
// section offers the ranking's own page; once the page is live the section holds the ranking
// itself, the API's for the page's own link, without being closed and opened again.
test("a ranking opened before the page comes alive is made when it does", async ({ page, request }) => {
  let release = () => {};
  const arrived = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\.wasm$/, async (route) => {
    await arrived;
    await route.continue();
  });
  await page.goto("/");
  // Not live yet: Enter submits the form to the server, as it would without JavaScript.
  const field = page.getByLabel("Requests per month");
  await field.fill("40M");
  await field.press("Enter");
  await expect(page).toHaveURL(/requests=40M/);

  const section = page.getByTestId("options");
  await section.locator("summary").click();
  await expect(section).toHaveAttribute("open", "");
  await expect(section.getByTestId("options-link")).toBeVisible();
  await expect(page.locator("[data-hydrated=true]")).toHaveCount(0);

  release();
  await hydrated(page);
  const own = new URL(page.url()).search.replace(/^\?/, "");
  const api = await (await request.get(`/api/v1/options?${own}`)).json();
  const rows = section.getByTestId("option");
  await expect(rows).toHaveCount(api.options.length);
  await expect(section).toHaveAttribute("open", "");
  const shown = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute("data-usd"))));
  for (const [i, o] of api.options.entries()) expect(shown[i]).toBeCloseTo(o.monthly_usd, 6);
});
