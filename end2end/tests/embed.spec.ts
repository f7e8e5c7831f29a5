import { createServer, type Server } from "node:http";
import { type AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";

// A wiki page served from another port frames /embed (allowed) and / (refused).
let wiki: Server;
let wikiUrl = "";

test.beforeAll(async ({}, info) => {
  const app = (info.project.use.baseURL as string).replace(/\/$/, "");
  wiki = createServer((_req, res) => {
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(`<!doctype html><title>wiki</title>
      <iframe id="embed" src="${app}/embed?requests=20M&chart=tornado" width="600" height="400"></iframe>
      <iframe id="full" src="${app}/?requests=20M" width="600" height="400"></iframe>`);
  });
  await new Promise<void>((resolve) => wiki.listen(0, "127.0.0.1", () => resolve()));
  wikiUrl = `http://127.0.0.1:${(wiki.address() as AddressInfo).port}/`;
});

test.afterAll(async () => {
  await new Promise((resolve) => wiki.close(resolve));
});

test("/embed renders inside another site's iframe, / refuses to", async ({ page, request }) => {
  await page.goto(wikiUrl);
  const embed = page.frameLocator("#embed");
  await expect(embed.getByTestId("embed")).toBeVisible();
  await expect(embed.locator("svg")).toHaveCount(1);
  const api = await (await request.get("/api/v1/evaluate?requests=20M")).json();
  const shown = Number(await embed.getByTestId("rent-monthly").getAttribute("data-usd"));
  expect(shown).toBeCloseTo(api.rent.monthly_usd, 6);
  await page.waitForLoadState("load");
  await expect(page.frameLocator("#full").getByTestId("verdict")).toHaveCount(0);
});
