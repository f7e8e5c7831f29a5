import { expect, test, type Page } from "@playwright/test";
import { ready } from "./helpers";

// Hostile names, notes and query values, saved and viewed in a real Chromium, with and without
// JavaScript: no dialog opens, no element is injected, the text shows as text. Each probe
// would call window.__xss (or open an alert) if it ran.
const PROBES = [
  "</title><script>alert(3)</script>",
  '"><img src=x onerror="window.__xss=1;alert(1)">',
  "<svg onload=alert(2)></svg>",
  "'; alert(4); '",
  "<iframe srcdoc=\"<script>parent.__xss=1</script>\"></iframe>",
];

function watch(page: Page) {
  const dialogs: string[] = [];
  page.on("dialog", async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  return async () => {
    expect(dialogs, "no dialog opens").toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss ?? 0)).toBe(0);
    expect(await page.locator("img[src=x], svg[onload], iframe[srcdoc]").count(), "no injected element").toBe(0);
  };
}

for (const [i, probe] of PROBES.entries()) {
  test(`a hostile saved name and note stay text (${i + 1})`, async ({ page, javaScriptEnabled }) => {
    const clean = watch(page);
    await page.goto("/?requests=3M");
    await ready(page, javaScriptEnabled);
    const name = `${probe} ${test.info().project.name}`;
    await page.locator("#save-name").fill(name);
    await page.locator("#save-note").fill(probe);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/s\/[0-9A-Za-z]{12}$/);
    await expect(page.getByTestId("saved-name")).toHaveText(name);
    expect(await page.title()).toBe(`servecost: ${name}`);
    await expect(page.locator("p.note")).toHaveText(probe);
    await clean();
    const id = page.url().split("/s/")[1];
    await page.goto(`/embed/s/${id}`);
    await expect(page.getByTestId("embed")).toBeVisible();
    await clean();
  });
}

test("hostile query values are listed as text, not markup", async ({ page }) => {
  const clean = watch(page);
  const hostile = encodeURIComponent(PROBES[1]);
  await page.goto(`/?model=${hostile}&${hostile}=${hostile}&mix=${hostile}&tokens=1B`);
  await expect(page.getByTestId("verdict")).toBeVisible();
  await expect(page.locator("body")).toContainText("window.__xss=1");
  await clean();
  await page.goto(`/embed?profile=${hostile}&${hostile}=1`);
  await expect(page.getByTestId("embed")).toBeVisible();
  await clean();
});
