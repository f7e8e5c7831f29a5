import { expect, test } from "@playwright/test";
import { apiReport, hydrated, ownLink, settled } from "./helpers";

// Figures typed as people type them (a dollar sign, thousands separators): the copied link and
// the address bar carry the canonical link, the very query the saved page keeps.
test("Copy link and the address bar carry the saved link's canonical query", async ({ page, context, request }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/");
  await hydrated(page);
  await page.getByLabel("API bill last month").fill("$13,900");
  await page.getByLabel(/^GPU-hour price/).fill("$2.35");
  await page.getByLabel("Input tokens per request").fill("8,000");
  await settled(page);
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByTestId("copy-status")).toHaveText("Link copied.");
  const copied = new URL(await page.evaluate(() => navigator.clipboard.readText())).search.slice(1);
  expect(copied).not.toContain("%24");
  expect(copied).not.toContain("%2C");
  expect(new URL(page.url()).search.slice(1)).toBe(copied);
  // The typed text stays in the fields.
  await expect(page.getByLabel("API bill last month")).toHaveValue("$13,900");

  await page.locator("#save-name").fill("Canonical");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/s\/[0-9A-Za-z]{12}$/);
  const id = page.url().split("/s/")[1];
  const saved = await (await request.get(`/api/v1/scenarios/${id}`)).json();
  expect(copied).toBe(saved.query);
  const api = await apiReport(request, copied);
  expect(api.rent.bill.paid_usd).toBe(13900);
  expect(api.inputs.gpu_hour_usd).toBe(2.35);
});

// An infra lead copies their benchmark's rows from a spreadsheet and pastes them into the
// first cell of the points table: the rows fill the table, and the answer is the API's for
// the page's own link.
test("spreadsheet rows pasted into a cell of the points table fill the table from that row", async ({ page, context, request }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/");
  await hydrated(page);
  await page.getByLabel(/Throughput curve/).selectOption("own");
  const first = page.getByLabel("Point 1: output tokens/s per user");
  await expect(first).toBeVisible();
  await page.evaluate(() => navigator.clipboard.writeText("20\t2400\n50\t1500\n100\t700\n"));
  await first.click();
  await page.keyboard.press("Control+V");
  await expect(first).toHaveValue("20");
  await expect(page.getByLabel("Point 1: total tokens/s per GPU")).toHaveValue("2400");
  await expect(page.getByLabel("Point 3: output tokens/s per user")).toHaveValue("100");
  await expect(page.getByLabel("Point 3: total tokens/s per GPU")).toHaveValue("700");

  // Pasted into the second row's throughput cell, two rows replace rows 2 and 3.
  await page.evaluate(() => navigator.clipboard.writeText("40,  1800\n80, 1000"));
  await page.getByLabel("Point 2: total tokens/s per GPU").click();
  await page.keyboard.press("Control+V");
  await expect(page.getByLabel("Point 2: output tokens/s per user")).toHaveValue("40");
  await expect(page.getByLabel("Point 3: total tokens/s per GPU")).toHaveValue("1000");
  await expect(page.getByLabel("Point 1: output tokens/s per user")).toHaveValue("20");

  await page.getByLabel("Mix the points were measured at").fill("1:0:1");
  const query = await ownLink(page);
  expect(decodeURIComponent(query)).toContain("points=20:2.4k,40:1.8k,80:1k");
  const api = await apiReport(request, query);
  expect(api.inputs.curve).toBe("own");
  await expect(page.getByTestId("self-monthly")).toHaveAttribute("data-usd", String(api.self_host.monthly_usd));
});
