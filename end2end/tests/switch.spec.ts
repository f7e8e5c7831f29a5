import { expect, test, type Page } from "@playwright/test";
import { apiReport, apply, chooseModel, ownLink, ready } from "./helpers";

/** The selected option of `select[name=name]` is one of its options, with a label. */
async function validChoice(page: Page, name: string) {
  const select = page.locator(`select[name=${name}]`);
  const value = await select.inputValue();
  const values = await select.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(values, `${name}: ${value}`).toContain(value);
  const label = await select.locator("option:checked").textContent();
  expect(label?.trim().length, `${name} shows a choice`).toBeGreaterThan(0);
}

// An infra lead prices owned H200s for GLM-5, opens MiniMax-M2.5 (measured on H200 too: the
// figures stay), then DeepSeek-R1, which has no H200 curve:
// the H200's purchase price and power are dropped with a notice naming them, the workload is
// kept, and the curve and offer selects hold valid choices of the new model. The bills are the
// API's for the page's own link.
test("switching to a model without the owned chip drops its figures and says so", async ({ page, request, javaScriptEnabled: js }) => {
  await page.goto("/");
  await ready(page, js);
  await chooseModel(page, "glm-5", js);
  await page.getByLabel("Requests per month").fill("20M");
  await page.getByLabel("GPUs", { exact: true }).selectOption("1");
  await apply(page, js);
  await page.getByLabel("Purchase price per GPU").fill("45,000");
  await page.getByLabel("All-in power per GPU").fill("1.275");
  await apply(page, js);
  await expect(page.getByTestId("owned-total")).toBeVisible();
  const before = await apiReport(request, await ownLink(page));
  expect(before.inputs.chip).toBe("h200");
  expect(before.inputs.gpu_hour_source).toBe("owned");

  // MiniMax-M2.5 runs on H200 too: the owned figures are kept, on its H200 curve.
  await chooseModel(page, "minimax-m2.5", js);
  await expect(page.getByTestId("model-dropped")).toHaveCount(0);
  await expect(page.getByLabel("Purchase price per GPU")).toHaveValue("45,000");
  const kept = await apiReport(request, await ownLink(page));
  expect(kept.inputs.chip).toBe("h200");
  expect(kept.inputs.gpu_hour_source).toBe("owned");

  await chooseModel(page, "deepseek-r1", js);
  const notice = page.getByTestId("model-dropped");
  await expect(notice).toContainText("DeepSeek-R1 has no curve on the NVIDIA H200");
  await expect(notice).toContainText("purchase price $45,000 a GPU");
  await expect(notice).toContainText("1.275 kW a GPU");
  await expect(page.getByLabel("GPUs", { exact: true })).toHaveValue("0");
  await expect(page.getByLabel("Requests per month")).toHaveValue("20M");
  await validChoice(page, "curve");
  await validChoice(page, "api");
  const query = await ownLink(page);
  const api = await apiReport(request, query);
  expect(api.inputs.model).toBe("deepseek-r1");
  expect(api.inputs.owned_parts).toBeNull();
  expect(api.inputs.chip).not.toBe("h200");
  const self = Number(await page.getByTestId("self-monthly").getAttribute("data-usd"));
  const rent = Number(await page.getByTestId("rent-monthly").getAttribute("data-usd"));
  expect(self).toBeCloseTo(api.self_host.monthly_usd, 6);
  expect(rent).toBeCloseTo(api.rent.monthly_usd, 6);
});
