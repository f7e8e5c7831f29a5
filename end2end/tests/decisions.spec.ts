import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { apiReport, apply, chooseModel, ownLink, pageNumbers, ready } from "./helpers";

// The four paths the finance lead and the infra lead walk, through the UI only, with and
// without JavaScript: owned hardware, their own benchmark, invoice totals typed as invoices
// print them, and the bill reconciled with the estimate. Each ends on numbers checked against
// the JSON API for the page's own link.

/** The page's totals equal the API's for the page's own link; returns that report. */
async function matchesApi(page: Page, request: APIRequestContext) {
  await expect(page.getByTestId("problems")).toHaveCount(0);
  const query = await ownLink(page);
  const api = await apiReport(request, query);
  const shown = await pageNumbers(page);
  expect(shown.rent).toBeCloseTo(api.rent.monthly_usd, 6);
  expect(shown.selfHost).toBeCloseTo(api.self_host.monthly_usd, 6);
  expect(shown.winner).toBe(api.verdict.winner);
  return { api, query, shown };
}

/** No serious or critical accessibility violation in this state (axe needs JavaScript). */
async function accessible(page: Page, js: boolean | undefined) {
  if (js === false) return;
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

const usd = async (page: Page, id: string) => Number(await page.getByTestId(id).getAttribute("data-usd"));

test("owned hardware: a purchase price of 35,000 over 4 years is priced, and renting comes back", async ({ page, request, javaScriptEnabled: js }) => {
  await page.goto("/");
  await ready(page, js);
  const gpuHour = page.getByLabel(/^GPU-hour price/);
  await gpuHour.fill("3.1");
  await apply(page, js);
  const rented = await matchesApi(page, request);

  await page.getByLabel("GPUs", { exact: true }).selectOption("1");
  await apply(page, js);
  // Every purchase input, with its default where one is documented, and capex asked for.
  const owned = page.getByTestId("owned");
  await expect(owned).toContainText("No published source gives a purchase price");
  // Defaults show in the empty fields (a form submitted without JavaScript sends only what
  // was typed): PUE 1.3, the chip's all-in 2.17 kW from the dataset.
  await expect(page.getByLabel("Power usage effectiveness")).toHaveAttribute("placeholder", "1.3");
  await expect(page.getByLabel("All-in power per GPU")).toHaveAttribute("placeholder", "2.17");
  await expect(page.getByLabel("Paid off over")).toHaveAttribute("placeholder", "4");
  // Each assumption is said beside its field, from the parameter's own default.
  await expect(owned).toContainText("Assumption: 4 years.");
  await expect(owned).toContainText("Assumption: 1.3.");
  await expect(owned).toContainText("Assumption: $0.10 per kWh.");
  await expect(owned).toContainText("Assumption: $150 per kW-month.");
  await expect(page.getByTestId("error-capex")).toContainText("required");
  await accessible(page, js);

  await page.getByLabel("Purchase price per GPU").fill("35,000");
  await page.getByLabel("Paid off over").fill("4");
  await apply(page, js);
  await expect(page.getByTestId("owned-total")).toBeVisible();
  const { api } = await matchesApi(page, request);
  expect(api.inputs.gpu_hour_source).toBe("owned");
  expect(api.self_host.monthly_usd).not.toBeCloseTo(rented.api.self_host.monthly_usd, 0);
  // What the owned GPU-hour is made of, as the API computes it.
  for (const part of ["capital", "power", "facility", "maintenance"]) {
    expect(await usd(page, `owned-${part}`)).toBeCloseTo(api.inputs.owned_parts[part], 9);
  }
  expect(await usd(page, "owned-total")).toBeCloseTo(api.inputs.gpu_hour_usd, 9);
  // The bill's owned lines add up to its compute.
  const b = api.self_host.breakdown;
  let lines = 0;
  for (const part of ["capital", "power", "facility", "maintenance"]) lines += await usd(page, `bill-${part}`);
  expect(lines).toBeCloseTo(b.busy_compute + b.idle_compute, 4);
  await accessible(page, js);

  // Back to renting: the rented price typed before is in force again.
  await page.getByLabel("GPUs", { exact: true }).selectOption("0");
  await apply(page, js);
  await expect(page.getByLabel(/^GPU-hour price/)).toHaveValue("3.1");
  await expect(page.getByTestId("owned")).toHaveCount(0);
  const back = await matchesApi(page, request);
  expect(back.api.self_host.monthly_usd).toBeCloseTo(rented.api.self_host.monthly_usd, 6);
});

test("your benchmark: typed points, a mix, 8 GPUs per replica, then a pasted vLLM result in their place", async ({ page, request, javaScriptEnabled: js }) => {
  await page.goto("/");
  await ready(page, js);
  await page.getByLabel(/Throughput curve/).selectOption("own");
  await apply(page, js);
  const editor = page.getByTestId("benchmark");
  await expect(editor).toBeVisible();
  const typed = [
    ["10", "2,600"],
    ["100", "900"],
    ["200", "500"],
  ];
  for (const [i, [tps, tput]] of typed.entries()) {
    await page.getByLabel(`Point ${i + 1}: output tokens/s per user`).fill(tps);
    await page.getByLabel(`Point ${i + 1}: total tokens/s per GPU`).fill(tput);
  }
  await page.getByLabel("Mix the points were measured at").fill("1:0:1");
  await page.getByLabel("GPUs per replica").fill("8");
  await apply(page, js);
  // A bad cell is named at the cell, with its range.
  await page.getByLabel("Point 4: output tokens/s per user").fill("0.01");
  await page.getByLabel("Point 4: total tokens/s per GPU").fill("900");
  await apply(page, js);
  await expect(page.getByTestId("error-pt-tps-3")).toContainText("0.1 to 10,000 tokens/s per user");
  await page.getByLabel("Point 4: output tokens/s per user").fill("");
  await page.getByLabel("Point 4: total tokens/s per GPU").fill("");
  await apply(page, js);

  // The raw result file of a vLLM serving benchmark, as the InferenceX runs save it.
  const file = join(
    __dirname,
    "../../server/tests/fixtures/inferencex-samples/inferencex_raw_multinode/minimax-m2.5/concurrency_128_req_rate_inf_gpus_16_ctx_8_gen_8.json",
  );
  const result = JSON.parse(readFileSync(file, "utf8"));
  await page.getByLabel("Paste rows or benchmark results").fill(readFileSync(file, "utf8"));
  await page.getByRole("button", { name: "Read the pasted text" }).click();
  await page.waitForLoadState("domcontentloaded");
  await expect(page.getByTestId("error-paste")).toHaveText("");
  // A benchmark result is a whole measurement: it replaces the typed rows and their mix. Its
  // point: 1000 / median TPOT per user, total throughput over the 8 GPUs.
  await expect(page.getByTestId("paste-read")).toHaveText("Read 1 benchmark result: it replaces the rows and the mix.");
  const speed = 1000 / result.median_tpot_ms;
  const perGpu = result.total_token_throughput / 8;
  await expect(page.getByLabel("Point 1: output tokens/s per user")).toHaveValue(String(Number(speed.toPrecision(4))));
  await expect(page.getByLabel("Point 1: total tokens/s per GPU")).toHaveValue(String(Number(perGpu.toPrecision(4))));
  await expect(page.getByLabel("Point 2: output tokens/s per user")).toHaveValue("");
  const mix = await page.getByLabel("Mix the points were measured at").inputValue();
  const [inPart, cachedPart, outPart] = mix.split(":").map(Number);
  expect(cachedPart).toBe(0);
  expect(inPart / outPart).toBeCloseTo(result.total_input_tokens / result.total_output_tokens, 2);
  const { api, query } = await matchesApi(page, request);
  expect(api.inputs.curve_source).toBe("user");
  expect(api.inputs.replica_gpus).toBe(8);
  // The curve the page priced is the pasted point alone, at the result's mix.
  const pasted = `${Number(speed.toPrecision(4))}:${Number(perGpu.toPrecision(4)) / 1000}k`;
  expect(query).toContain(`points=${pasted}`);
  expect(query).not.toContain("10:2.6k");
  expect(query).toContain(`curve_mix=${mix}`);
  await accessible(page, js);

  // The link keeps it all: reopened, the editor is filled.
  await page.goto(`/?${query}`);
  await ready(page, js);
  await expect(page.getByLabel("Point 1: output tokens/s per user")).toHaveValue(String(Number(speed.toPrecision(4))));
  await expect(page.getByLabel("Point 1: total tokens/s per GPU")).toHaveValue(String(Number(perGpu.toPrecision(4))));
  await expect(page.getByLabel("Point 2: output tokens/s per user")).toHaveValue("");
  await expect(page.getByLabel("Mix the points were measured at")).toHaveValue(mix);
  await expect(page.getByLabel("GPUs per replica")).toHaveValue("8");
  const reopened = await pageNumbers(page);
  expect(reopened.selfHost).toBeCloseTo(api.self_host.monthly_usd, 6);
});

test("invoice totals typed as invoices print them, and the bill reconciled", async ({ page, request, javaScriptEnabled: js }) => {
  await page.goto("/");
  await ready(page, js);
  await page.getByRole("link", { name: "Three totals (invoice)" }).click();
  await expect(page.getByLabel(/^Uncached input tokens per month/)).toBeVisible();
  await ready(page, js);
  // What the tab pre-fills is rounded for people: four significant digits at most.
  for (const label of ["Uncached input tokens per month", "Cached input tokens per month", "Output tokens per month"]) {
    await expect(page.getByLabel(new RegExp(`^${label}`))).toHaveValue(/^(0|[1-9]\d{0,3}(\.\d{1,3})?|0\.\d{1,4})[kMBT]?$/);
  }
  await page.getByLabel(/^Uncached input tokens per month/).fill("3.1 B");
  await page.getByLabel(/^Cached input tokens per month/).fill("41,000,000,000");
  await page.getByLabel(/^Output tokens per month/).fill("900M");
  await apply(page, js);
  const typed = await matchesApi(page, request);
  expect(typed.api.inputs.volumes).toEqual({ uncached: 3.1e9, cached: 41e9, output: 9e8 });
  await expect(page.getByLabel(/^Cached input tokens per month/)).toHaveValue("41,000,000,000");

  // Last month's bill: the difference and the discount it implies, applied in one click.
  await page.getByLabel("API bill last month").fill("12,000");
  await apply(page, js);
  const reconcile = page.getByTestId("reconcile");
  const billed = await matchesApi(page, request);
  const check = billed.api.rent.bill;
  expect(check.paid_usd).toBe(12000);
  expect(Number(await reconcile.getAttribute("data-discount"))).toBeCloseTo(check.discount, 9);
  expect(Number(await reconcile.getAttribute("data-estimate"))).toBeCloseTo(typed.api.rent.monthly_usd, 6);
  const discount = `${Number((check.discount * 100).toFixed(1))}\u00a0%`;
  await expect(reconcile).toContainText(discount);
  await accessible(page, js);
  await page.getByTestId("apply-discount").click();
  await expect(page).toHaveURL(/price_in=/);
  await ready(page, js);
  const applied = await matchesApi(page, request);
  // The prices are written to six significant digits: the bill is met to the dollar.
  expect(Math.abs(applied.api.rent.monthly_usd - 12000)).toBeLessThan(1);
  await expect(page.getByLabel("API input price")).toHaveValue(String(Number(check.price_in.toPrecision(6))));
  await expect(page.getByTestId("reconcile")).toContainText("matches the estimate at your own prices");
});

test("several benchmark results pasted at once fill the table, with and without JavaScript", async ({ page, request, javaScriptEnabled: js }) => {
  // All eight runs of one InferenceX sweep, as one JSON array (about 11 KB: more than an
  // address may carry, so the form posts it).
  const dir = join(__dirname, "../../server/tests/fixtures/inferencex-samples/inferencex_raw_multinode/minimax-m2.5");
  const runs = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")));
  expect(runs.length).toBe(8);
  await page.goto("/");
  await ready(page, js);
  await page.getByLabel(/Throughput curve/).selectOption("own");
  await apply(page, js);
  await page.getByLabel("GPUs per replica").fill("16");
  await apply(page, js);
  await page.getByLabel("Paste rows or benchmark results").fill(JSON.stringify(runs, null, 1));
  await page.getByRole("button", { name: "Read the pasted text" }).click();
  await page.waitForLoadState("domcontentloaded");
  await expect(page.getByTestId("error-paste")).toHaveText("");
  // With or without JavaScript, the page says how many it read (the server signs its words).
  await expect(page.getByTestId("paste-read")).toHaveText("Read 8 benchmark results: they replace the rows and the mix.");
  const speeds = runs.map((r) => Number((1000 / r.median_tpot_ms).toPrecision(4))).sort((a, b) => a - b);
  for (const [i, s] of speeds.entries()) {
    await expect(page.getByLabel(`Point ${i + 1}: output tokens/s per user`)).toHaveValue(String(s));
  }
  // The mix comes from the runs' own token counts: 1,024 in, 1,024 out, nothing cached.
  await expect(page.getByLabel("Mix the points were measured at")).toHaveValue("50:0:50");
  await matchesApi(page, request);
});

// An infra lead types a benchmark of DeepSeek-R1 (671B parameters) measured on one 80 GB H100:
// one GPU cannot hold the weights, and the refusal names both sizes at the replica field; the
// API refuses the page's own link with the same message.
test("a replica that cannot hold the model's weights is refused, naming both sizes", async ({ page, request, javaScriptEnabled: js }) => {
  await page.goto("/");
  await ready(page, js);
  await chooseModel(page, "deepseek-r1", js);
  await page.getByLabel(/Throughput curve/).selectOption("own");
  await apply(page, js);
  await expect(page.getByTestId("benchmark")).toBeVisible();
  for (const [i, [tps, tput]] of [
    ["10", "2,600"],
    ["50", "900"],
  ].entries()) {
    await page.getByLabel(`Point ${i + 1}: output tokens/s per user`).fill(tps);
    await page.getByLabel(`Point ${i + 1}: total tokens/s per GPU`).fill(tput);
  }
  await page.getByLabel("Mix the points were measured at").fill("1:0:1");
  await page.getByLabel("Chip the points were measured on").selectOption("h100");
  await page.getByLabel("GPUs per replica").fill("1");
  await apply(page, js);
  const error = page.getByTestId("error-replica");
  await expect(error).toContainText("80");
  await expect(error).toContainText("GB");
  await expect(error).toContainText("a replica needs at least");
  const message = (await error.textContent()) ?? "";
  expect(message).toMatch(/428/);
  if (js) {
    // The page's own link (without JavaScript the form's fields are the page's address, and
    // the page answers them itself: the refusal above).
    const query = new URL(page.url()).search.slice(1);
    expect(query).toContain("replica=1");
    const response = await request.get(`/api/v1/evaluate?${query}`);
    expect(response.status()).toBe(422);
    const body = await response.json();
    const problem = body.problems.find((p: { param: string }) => p.param === "replica");
    expect(problem, JSON.stringify(body.problems)).toBeDefined();
    expect(problem.reason).toContain("a replica needs at least");
    expect(problem.reason).toMatch(/428/);
  }
});
