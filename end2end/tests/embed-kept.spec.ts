import { expect, test } from "@playwright/test";
import { apiReport, apply, ownLink, ready } from "./helpers";

// A finance lead sets a volume, copies the page's wiki snippet, and every reader of the wiki
// page gets the same embed: the kept document, in the coding the browser accepts, with the
// numbers the API gives for the page's own link.
test("every reader of a wiki's embed gets the page's numbers", async ({ page, browser, request, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  const field = page.getByLabel("Requests per month");
  await field.fill("37M");
  await apply(page, javaScriptEnabled);
  const query = await ownLink(page);
  expect(query).toContain("requests=37M");
  const snippet = await page.getByLabel(/Embed in a wiki/).inputValue();
  const src = snippet.match(/src="([^"]+)"/)?.[1] ?? "";
  const embedUrl = new URL(new URL(src).pathname + new URL(src).search, page.url()).toString();
  const api = await apiReport(request, query);

  const wiki = `<!doctype html><title>wiki</title><iframe src="${embedUrl}" width="600" height="400"></iframe>`;
  const bodies: string[] = [];
  for (const reader of ["first reader", "second reader"]) {
    const context = await browser.newContext({ javaScriptEnabled: true });
    const tab = await context.newPage();
    // A page of an http origin (the frame's policy allows any, but not an opaque about:blank).
    await tab.goto(new URL("/healthz", embedUrl).toString());
    const answer = tab.waitForResponse((r) => r.url() === embedUrl);
    await tab.setContent(wiki);
    const response = await answer;
    expect(response.status(), reader).toBe(200);
    expect(["br", "gzip"], reader).toContain(response.headers()["content-encoding"]);
    bodies.push(await response.text());
    const frame = tab.frameLocator("iframe");
    await expect(frame.getByTestId("embed")).toBeVisible();
    const rent = Number(await frame.getByTestId("rent-monthly").getAttribute("data-usd"));
    const own = Number(await frame.getByTestId("self-monthly").getAttribute("data-usd"));
    expect(rent, reader).toBeCloseTo(api.rent.monthly_usd, 6);
    expect(own, reader).toBeCloseTo(api.self_host.monthly_usd, 6);
    await context.close();
  }
  expect(bodies[1]).toBe(bodies[0]);
});
