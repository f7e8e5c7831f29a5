import { expect, test } from "@playwright/test";
import { ready } from "./helpers";

test.use({ viewport: { width: 390, height: 844 } });

// On a phone the answer comes first; one tap on "Edit inputs" brings the form into view.
test("on a phone the answer comes first and one tap reaches the inputs", async ({ page, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  await expect(page.getByTestId("best")).toBeInViewport();
  const form = page.locator("#inputs");
  await expect(form).not.toBeInViewport();
  await page.getByTestId("edit-inputs").click();
  await expect(form).toBeInViewport();
  await expect(page.getByLabel("Requests per month")).toBeVisible();
});
