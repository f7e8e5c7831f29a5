import { expect, test, type Page } from "@playwright/test";
import { apiReport, apply, chooseModel, ownLink, ready, unfold } from "./helpers";

/** The bills the page shows, for comparison with the API's. */
async function bills(page: Page) {
  return {
    rent: Number(await page.getByTestId("rent-monthly").getAttribute("data-usd")),
    self: Number(await page.getByTestId("self-monthly").getAttribute("data-usd")),
  };
}

/** The label of the first option of `select` whose text matches `pattern`. */
async function optionLabel(page: Page, name: string, pattern: RegExp) {
  const labels = await page.locator(`select[name=${name}] option`).allTextContents();
  const label = labels.find((l) => pattern.test(l));
  expect(label, `an option of ${name} matching ${pattern}: ${labels.join(" | ")}`).toBeDefined();
  return label!;
}

// A finance lead whose team runs DeepSeek-R1 chooses it first, then an audited MLPerf curve on
// NVIDIA B200 and OpenRouter's offer, whose price the two price tables give differently. The
// page names the data tier and says the sources disagree, and its bills are the API's for the
// page's own link.
test("DeepSeek-R1 on B200 against OpenRouter's price", async ({ page, request, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  const model = page.getByLabel("Open-weight model");
  // Each model says what the dataset holds of it.
  await expect(model.locator("option", { hasText: /^DeepSeek-R1 — measured on \d+ chips, \d+ API offers from \d+ providers$/ })).toHaveCount(1);
  await model.selectOption("deepseek-r1");
  if (javaScriptEnabled === false) {
    await page.getByRole("button", { name: "Choose this model" }).click();
  }
  await page.waitForURL(/model=deepseek-r1/);
  await page.waitForLoadState("domcontentloaded");
  await ready(page, javaScriptEnabled);
  await expect(page.getByLabel("Open-weight model")).toHaveValue("deepseek-r1");
  await expect(page.getByTestId("model-reach")).toContainText("measured curves");
  // The curves are DeepSeek-R1's, each named with its data tier.
  const curve = await optionLabel(page, "curve", /NVIDIA B200, .*MLPerf.*audited/);
  await page.locator("select[name=curve]").selectOption({ label: curve });
  const offer = await optionLabel(page, "api", /^OpenRouter: deepseek-r1 \(/);
  await page.locator("select[name=api]").selectOption({ label: offer });
  await apply(page, javaScriptEnabled);
  await expect(page.getByTestId("offer-note")).toContainText("Sources disagree");
  const query = await ownLink(page);
  expect(query).toContain("model=deepseek-r1");
  const api = await apiReport(request, query);
  expect(api.inputs.model).toBe("deepseek-r1");
  expect(api.inputs.curve_label).toContain("audited");
  expect(api.inputs.curve_label).toContain("NVIDIA B200");
  const shown = await bills(page);
  expect(shown.rent).toBeCloseTo(api.rent.monthly_usd, 6);
  expect(shown.self).toBeCloseTo(api.self_host.monthly_usd, 6);
  // The offer chosen is the one the page names, at the table's price.
  expect(api.inputs.api).toMatch(/openrouter/);
});

// An experimental curve says so where it is named, and /data shows its tier and the power the
// runs measured beside the chip's all-in figure.
test("an experimental run names its tier and its measured power", async ({ page, request, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  await chooseModel(page, "deepseek-r1", javaScriptEnabled);
  const curve = await optionLabel(page, "curve", /sglang.*experimental/i);
  await page.locator("select[name=curve]").selectOption({ label: curve });
  await apply(page, javaScriptEnabled);
  const query = await ownLink(page);
  const api = await apiReport(request, query);
  expect(api.inputs.curve_label).toContain("experimental");
  expect((await bills(page)).self).toBeCloseTo(api.self_host.monthly_usd, 6);
  await page.goto("/data?model=deepseek-r1&show=curves");
  const article = page.locator("article.curve", { hasText: /sglang/i }).first();
  await expect(article.getByTestId("curve-tier")).toContainText("experimental");
  await expect(article.locator("th", { hasText: "Measured power per GPU" })).toHaveCount(1);
  await expect(article.locator("td", { hasText: / W$/ }).first()).toBeVisible();
});

// An infra lead checks how gpt-oss-120b is sized: it fits one GPU, so no self-hosted option of
// its ranking takes a whole MLPerf system (8 to 512 GPUs) as one replica, and the page's bills
// are the API's for its own link, whose replica is the dataset's as deployed.
test("gpt-oss-120b is ranked on replicas as deployed", async ({ page, request, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  await chooseModel(page, "gpt-oss-120b", javaScriptEnabled);
  const query = await ownLink(page);
  const api = await apiReport(request, query);
  expect(api.dataset_revision).toBeGreaterThanOrEqual(5);
  expect(api.inputs.replica_gpus).toBeLessThanOrEqual(8);
  const shown = await bills(page);
  expect(shown.rent).toBeCloseTo(api.rent.monthly_usd, 6);
  expect(shown.self).toBeCloseTo(api.self_host.monthly_usd, 6);
  await page.getByTestId("options").locator("summary").click();
  if (javaScriptEnabled === false) {
    // Without JavaScript the section links to the ranking's own page.
    await page.getByRole("link", { name: "rank them" }).click();
    await page.waitForURL(/\/options\?/);
  }
  const rows = page.getByTestId("option").filter({ hasText: / × (NVIDIA|AMD)/ });
  await expect(rows.first()).toBeVisible();
  const labels = await rows.allTextContents();
  expect(labels.length).toBeGreaterThan(0);
  for (const label of labels) {
    const gpus = Number(/(\d+) × (NVIDIA|AMD)/.exec(label)![1]);
    expect(gpus, label).toBeLessThanOrEqual(8);
  }
});

// An infra lead who knows how DeepSeek-R1 is served in MLPerf picks Nebius's B300 system: the
// page sizes a replica as the submitter configured it (TensorRT-LLM DEP8, 8 GPUs), says so at
// the replica field, and /data, reached from the page's own link and searched by name, shows
// the same size with the file it comes from, the curve's P and its batch rate; the API's report
// for the page's link holds the same replica and P.
test("a DeepSeek-R1 replica is the submitter's configuration, said at the field and on /data", async ({ page, request, javaScriptEnabled: js }) => {
  await page.goto("/");
  await ready(page, js);
  await chooseModel(page, "deepseek-r1", js);
  const curve = await optionLabel(page, "curve", /B300.*Nebius|Nebius.*B300/);
  await page.locator("select[name=curve]").selectOption({ label: curve });
  await apply(page, js);
  const api = await apiReport(request, await ownLink(page));
  expect(api.dataset_revision).toBeGreaterThanOrEqual(6);
  expect(api.inputs.replica_gpus).toBe(8);
  await unfold(page, "Fleet", js);
  await expect(page.getByLabel(/GPUs per replica/)).toHaveAttribute("placeholder", "8");
  const basis = page.getByTestId("replica-basis");
  await expect(basis).toContainText("8 GPUs a replica: the submitter's configuration of the system (TP 8 × PP 1, EP 8");
  await expect(basis).toContainText("trtllm-serve-ifb-dep8.yaml");
  const said = (await basis.textContent()) ?? "";
  await page.getByRole("link", { name: "Every figure in the dataset" }).click();
  await page.waitForURL(/\/data/);
  await page.getByLabel("Search the dataset").fill("Nebius");
  await page.getByRole("button", { name: "Search" }).click();
  await page.waitForURL(/q=Nebius/i);
  // /data names the curve as the select does, without the select's note on its mix.
  const named = curve.replace(/, mix assumed$/, "");
  const article = page.locator("article.curve").filter({ has: page.locator("h3", { hasText: named }) });
  await expect(article).toHaveCount(1);
  const replica = article.getByTestId("curve-replica");
  await expect(replica).toHaveAttribute("data-gpus", String(api.inputs.replica_gpus));
  await expect(replica).toHaveText(said);
  await expect(article.getByTestId("curve-prefill")).toHaveAttribute("data-prefill", String(api.inputs.prefill));
  await expect(article.getByTestId("curve-batch")).toContainText("the Offline rate batch traffic is served at");
  await expect(article.getByTestId("curve-bounds")).toContainText("Input share of the measured mix: between ");
});
