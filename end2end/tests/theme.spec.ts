import { expect, test } from "@playwright/test";
import { ready } from "./helpers";

// Charts follow the theme: a dark panel in dark mode (the light drawing inverted, hues turned
// back), the light drawing in light mode and on paper.
for (const scheme of ["light", "dark"] as const) {
  test(`charts follow the ${scheme} theme, and print light`, async ({ page, javaScriptEnabled }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/");
    await ready(page, javaScriptEnabled);
    const svg = page.getByTestId("chart-volume").locator("svg");
    const filter = () => svg.evaluate((el) => getComputedStyle(el).filter);
    if (scheme === "dark") expect(await filter()).toContain("invert");
    else expect(await filter()).toBe("none");
    await page.emulateMedia({ colorScheme: scheme, media: "print" });
    expect(await filter()).toBe("none");
  });
}
