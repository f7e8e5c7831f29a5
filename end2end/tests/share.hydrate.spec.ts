import { expect, test } from "@playwright/test";
import { hydrated, pageNumbers } from "./helpers";

test("a copied link opened in a new context shows the same numbers", async ({ page, browser, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/?requests=12M");
  await hydrated(page);
  await page.getByLabel(/^GPU-hour price/).fill("3.3");
  const shown = await pageNumbers(page);
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByTestId("copy-status")).toHaveText("Link copied.");
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toContain("gpu_hour=3.3");
  const other = await browser.newContext();
  const fresh = await other.newPage();
  await fresh.goto(link);
  const again = await pageNumbers(fresh);
  expect(again).toEqual(shown);
  await other.close();
});
