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
    // Paper is light in either theme: the decision's panel, its text and the page behind it.
    const colours = await page.getByTestId("verdict").evaluate(() => {
      const panel = document.querySelector(".decision .sureness") ?? document.querySelector(".decision");
      const style = (el: Element | null) => (el ? getComputedStyle(el) : null);
      return {
        body: style(document.body)?.backgroundColor,
        panel: style(panel)?.backgroundColor,
        text: style(panel)?.color,
      };
    });
    expect(colours.body).toBe("rgb(255, 255, 255)");
    expect(colours.panel).toBe("rgb(245, 246, 248)");
    expect(colours.text).toMatch(/^rgb\((0|26), (0|26), (0|26)\)$/);
  });
}
