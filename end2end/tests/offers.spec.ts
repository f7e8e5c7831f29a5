import { execFileSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { binary, ready, root, startServer } from "./helpers";

// A model with many API offers: the calculator lists 24 of them and says so; the person follows
// its link to /data, searches for the provider they pay, picks its offer, and lands back on the
// calculator with their scenario and that offer, at the API's figure for the page's own link.
// The server and its database are this file's own: the import changes the data other tests read.

const OFFERS = 60;

let dir: string;
let base: string;
let server: ChildProcess | undefined;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "servecost-offers-"));
  const database = `sqlite://${join(dir, "servecost.db")}`;
  // A LiteLLM-style price table: provider i charges (1 + i % 7) × $0.10 in, (1 + i % 5) × $0.40 out.
  const table: Record<string, unknown> = {};
  for (let i = 0; i < OFFERS; i++) {
    table[`provider-${i}/muse-spark-open`] = {
      input_cost_per_token: (1 + (i % 7)) * 1e-7,
      output_cost_per_token: (1 + (i % 5)) * 4e-7,
      cache_read_input_token_cost: (1 + (i % 7)) * 1e-8,
      litellm_provider: `provider-${i}`,
      mode: "chat",
    };
  }
  const file = join(dir, "prices.json");
  writeFileSync(file, JSON.stringify(table));
  ({ base, process: server } = await startServer(database));
  const out = execFileSync(binary, ["import", "--model", "muse-spark-open", file], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: database },
    encoding: "utf8",
  });
  expect(out).toContain("Wrote dataset revision");
  // The running server picks the revision up by itself.
  await expect
    .poll(async () => ((await (await fetch(`${base}/api/v1/dataset?limit=500`)).json()).api_offers ?? []).length, {
      timeout: 15_000,
    })
    .toBeGreaterThan(OFFERS);

  // And 30 on-demand GPU-hour prices for the chip the default curve runs on.
  const dataset = await (await fetch(`${base}/api/v1/dataset?limit=500`)).json();
  const chip = dataset.curves[0].chip;
  const source = dataset.price_tiers[0].source;
  const tiersBefore = dataset.price_tiers.length;
  const tiers = Array.from({ length: 30 }, (_, i) => ({
    chip,
    tier: `cloud-${i}`,
    label: `Cloud ${i} on demand`,
    usd_per_gpu_hour: 3 + (i % 30) / 10,
    source,
    kind: "on_demand",
  }));
  const tierFile = join(dir, "tiers.json");
  writeFileSync(tierFile, JSON.stringify({ price_tiers: tiers }));
  execFileSync(binary, ["import", tierFile], { cwd: root, env: { ...process.env, DATABASE_URL: database } });
  await expect
    .poll(async () => ((await (await fetch(`${base}/api/v1/dataset?limit=500`)).json()).price_tiers ?? []).length, {
      timeout: 15_000,
    })
    .toBe(tiersBefore + 30);
});

test.afterAll(() => {
  server?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("an offer beyond the listed ones is found on /data and priced back in the calculator", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.goto(`${base}/`);
  await ready(page, javaScriptEnabled);
  // The form lists 24 offers and says how many the model has.
  const choice = page.locator("select[name=api]");
  await expect(choice.locator("option")).toHaveCount(24);
  const more = page.getByTestId("more-offers");
  await expect(more).toContainText("Listed: 24 of the model's");
  const total = Number((await more.textContent())!.match(/model's ([\d,]+) offers/)![1].replace(/,/g, ""));
  expect(total).toBeGreaterThan(OFFERS);

  // The person types their volume first, so the offer they pick must keep it.
  const requests = page.getByRole("textbox", { name: /Requests per month/ });
  await requests.fill("7M");
  if (javaScriptEnabled === false) {
    await requests.press("Enter");
    await page.waitForURL(/requests=7M/);
  } else {
    await requests.press("Tab");
    await expect(page).toHaveURL(/requests=7M/);
  }

  await page.getByTestId("search-offers").click();
  await expect(page).toHaveURL(/\/data\?/);
  await expect(page.getByTestId("pager-offers")).toContainText(`of ${total}`);
  await page.getByLabel("Search the dataset").fill("provider-42:");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=provider-42/);
  await expect(page).toHaveURL(/#offers$/);
  const use = page.getByTestId("use-offer");
  await expect(use).toHaveCount(1);
  await use.click();

  // Back on the calculator with the scenario kept and the offer chosen.
  await expect(page).toHaveURL(/api=litellm-provider-42-muse-spark-open/);
  await expect(page).toHaveURL(/requests=7M/);
  await ready(page, javaScriptEnabled);
  await expect(choice).toHaveValue("litellm-provider-42-muse-spark-open");
  const query = new URL(page.url()).search.slice(1);
  const api = await (await fetch(`${base}/api/v1/evaluate?${query}`)).json();
  expect(api.inputs.api).toBe("litellm-provider-42-muse-spark-open");
  // provider 42: $0.10 × (1 + 0) in, $0.40 × (1 + 2) out per token × 1e6.
  expect(api.inputs.price_in).toBeCloseTo(0.1, 9);
  expect(api.inputs.price_out).toBeCloseTo(1.2, 9);
  const rent = Number(await page.getByTestId("rent-monthly").getAttribute("data-usd"));
  expect(rent).toBeCloseTo(api.rent.monthly_usd, 6);
});

test("a GPU-hour price beyond the listed ones is found on /data and priced back in the calculator", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.goto(`${base}/`);
  await ready(page, javaScriptEnabled);
  await expect(page.getByTestId("more-tiers")).toContainText("Listed: 12 of this chip's prices");
  await page.getByTestId("search-tiers").click();
  await expect(page).toHaveURL(/\/data\?/);
  await page.getByLabel("Search the dataset").fill("Cloud 27 on demand");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/#tiers$/);
  const use = page.getByTestId("use-tier");
  await expect(use).toHaveCount(1);
  await use.click();

  await expect(page).toHaveURL(/gpu_tier=cloud-27/);
  await ready(page, javaScriptEnabled);
  const query = new URL(page.url()).search.slice(1);
  const api = await (await fetch(`${base}/api/v1/evaluate?${query}`)).json();
  expect(api.inputs.gpu_tier).toBe("cloud-27");
  // Cloud 27: $3 + 2.7 an hour.
  expect(api.inputs.gpu_hour_usd).toBeCloseTo(5.7, 9);
  const selfHost = Number(await page.getByTestId("self-monthly").getAttribute("data-usd"));
  expect(selfHost).toBeCloseTo(api.self_host.monthly_usd, 6);
  await expect(page.getByTestId("gpu-hour-label")).toContainText("Cloud 27 on demand");
});
