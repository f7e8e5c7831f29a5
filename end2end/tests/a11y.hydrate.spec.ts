import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

// axe runs as a script in the page, so this runs in the JavaScript project only; the markup it
// checks is the same server-rendered markup the no-JavaScript project sees.
for (const [path, scheme] of [["/", "light"], ["/data", "light"], ["/method", "light"], ["/api/v1/docs", "light"], ["/", "dark"], ["/compare?a=requests%3D20M&b=requests%3D60M%26horizon%3D5", "light"], ["/compare?a=requests%3D20M&b=requests%3D60M", "dark"], ["/options?requests=40M", "light"], ["/options?requests=40M", "dark"]] as const) {
  test(`no serious or critical accessibility violations on ${path} (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(path);
    const results = await new AxeBuilder({ page }).analyze();
    const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  });
}

