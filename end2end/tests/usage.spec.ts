import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiReport, ready, root } from "./helpers";

const examples = join(root, "server/usage-examples");
const openai = readFileSync(join(examples, "openai-completions.json"), "utf8");

/** What the API reads from an export. */
async function apiUsage(request: APIRequestContext, body: string, query = "") {
  const response = await request.post(`/api/v1/usage${query}`, { data: body, headers: { "content-type": "text/plain" } });
  expect(response.status(), await response.text()).toBe(200);
  return response.json();
}

/** The page's own link, its report from the API, and the numbers the page shows for it. */
async function pageAgainstApi(page: Page, request: APIRequestContext, usage: any) {
  const query = new URL(page.url()).search.slice(1);
  const report = await apiReport(request, query);
  // The volumes are the export's, scaled to a month.
  expect(report.inputs.volumes.uncached).toBe(usage.monthly.input);
  expect(report.inputs.volumes.cached).toBe(usage.monthly.cached);
  expect(report.inputs.volumes.output).toBe(usage.monthly.output);
  // The link's rounded weights keep the measured peak to a thousandth.
  expect(Math.abs(report.inputs.profile_peak / usage.peak_to_average - 1)).toBeLessThan(1e-3);
  // The page shows that report: the bill, the volumes in the totals' fields and the peak.
  const rent = Number(await page.getByTestId("rent-monthly").getAttribute("data-usd"));
  expect(rent).toBeCloseTo(report.rent.monthly_usd, 6);
  const self = Number(await page.getByTestId("self-monthly").getAttribute("data-usd"));
  expect(self).toBeCloseTo(report.self_host.monthly_usd, 6);
  await expect(page.locator("#f-input")).toHaveValue(/./);
  const said = (await page.locator(".spark").innerText()).match(/Peak hour: ([\d.]+)× the average/);
  expect(said, "the peak is said").not.toBeNull();
  expect(Math.abs(Number(said![1]) / report.inputs.profile_peak - 1)).toBeLessThan(0.005);
  return query;
}

test("a pasted OpenAI export becomes the workload, the other inputs kept", async ({ page, request, javaScriptEnabled }) => {
  // A workload and a speed typed on the page (sent with "Update" when there is no JavaScript).
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  await page.getByLabel("Requests per month").fill("30M");
  await page.getByLabel("Output speed per user to sustain").fill("100");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page).toHaveURL(/tps=100/);
  await expect(page).toHaveURL(/requests=30M/);
  await ready(page, javaScriptEnabled);
  await page.getByText("From your provider's usage export").click();
  await page.getByLabel("Paste the export").fill(openai);
  await page.getByLabel("Model, when the export holds several").fill("gpt-oss-120b");
  await page.getByRole("button", { name: "Read the export" }).click();
  await expect(page).toHaveURL(/[?&]input=/);
  await ready(page, javaScriptEnabled);
  const usage = await apiUsage(request, openai, "?model=gpt-oss-120b");
  const query = await pageAgainstApi(page, request, usage);
  // The form's own workload gave way; its speed target stayed.
  expect(query).toContain("tps=100");
  expect(query).not.toContain("requests=");
  // Two weeks either side of a month's end are not two months: the link measures no growth.
  expect(usage.growth).toBeNull();
  expect(query).not.toContain("growth=");
});

test("an uploaded CSV becomes the workload and its week the profile", async ({ page, request, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  await page.getByText("From your provider's usage export").click();
  await page.getByLabel("…or choose its file").setInputFiles(join(examples, "usage.csv"));
  await page.getByRole("button", { name: "Read the export" }).click();
  await expect(page).toHaveURL(/[?&]profile=/);
  await ready(page, javaScriptEnabled);
  const usage = await apiUsage(request, readFileSync(join(examples, "usage.csv"), "utf8"));
  expect(usage.profile).toHaveLength(168);
  const query = await pageAgainstApi(page, request, usage);
  // What was read is said, with the export's notes.
  await expect(page.getByTestId("usage-read")).toContainText("The export's qwen3-235b traffic. 8 days of hourly buckets (2026-06-01 00:00 to 2026-06-09 00:00 UTC)");
  await expect(page.getByTestId("usage-read")).toContainText("Batch traffic (29\u00a0% of the tokens)");
  // Its batch traffic is priced as batch: the bill says how much idle time it fills, the API's.
  const report = await apiReport(request, query);
  expect(report.batch.share).toBe(0.2878);
  // GPU-hours as the page writes a plain number: grouped from 1,000, else 3 significant digits.
  const hours = report.batch.absorbed_gpu_hours;
  const absorbed = hours >= 999.5 ? Math.round(hours).toLocaleString("en-US") : String(Number(hours.toPrecision(3)));
  await expect(page.getByTestId("batch-note")).toContainText(`${absorbed} of them run on the fleet held for the other traffic`);
  await expect(page.locator("[data-testid=load-week] svg polyline.served")).toHaveCount(1);
});

test("an export that cannot be read is named, the model typed kept and the export not in the address", async ({ page, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  await page.getByText("From your provider's usage export").click();
  await page.getByLabel("Paste the export").fill("when,tokens\n2026-06-01,5");
  await page.getByLabel("Model, when the export holds several").fill("gpt-oss-120b");
  await page.getByRole("button", { name: "Read the export" }).click();
  await expect(page.getByTestId("error-usage")).toContainText("header: no column for the bucket's start time");
  await expect(page.getByLabel("Model, when the export holds several")).toHaveValue("gpt-oss-120b");
  expect(page.url()).not.toContain("when");
  await expect(page.getByTestId("usage-import")).toHaveAttribute("open", "");
  // Nothing else changed: the workload is still the default one.
  await expect(page).not.toHaveURL(/[?&]input=/);
  await expect(page.getByLabel("Requests per month")).toBeVisible();
});

test("the page shows only the messages the server wrote into its link", async ({ page, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  await page.getByText("From your provider's usage export").click();
  await page.getByLabel("Paste the export").fill("when,tokens\n2026-06-01,5");
  await page.getByRole("button", { name: "Read the export" }).click();
  // The server's own reason, signed in the link it sent the browser to, is shown.
  await expect(page.getByTestId("error-usage")).toContainText("header: no column for the bucket's start time");
  // The same page's link with someone else's words in place of the reason: not shown.
  const link = new URL(page.url());
  link.searchParams.set("usage_error", "Your account is closed: call 555 0100");
  await page.goto(link.toString());
  await ready(page, javaScriptEnabled);
  await expect(page.getByText("Your account is closed")).toHaveCount(0);
  await expect(page.getByTestId("error-usage")).toHaveText("");
});

test("an address that serves nothing answers a small page with a way back", async ({ page }) => {
  const response = await page.goto("/nothing-is-here.txt");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await page.getByRole("link", { name: "The calculator" }).click();
  await expect(page.getByLabel("Requests per month")).toBeVisible();
});
