import { chromium } from "playwright-core";
const base = "http://127.0.0.1:3112";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
async function shot(name, url, opts = {}, locator) {
  const ctx = await browser.newContext({ viewport: { width: opts.w ?? 1366, height: opts.h ?? 900 }, colorScheme: opts.dark ? "dark" : "light" });
  const page = await ctx.newPage();
  await page.goto(base + url);
  await page.waitForTimeout(800);
  if (locator) {
    const el = page.locator(locator).first();
    await el.scrollIntoViewIfNeeded();
    await el.screenshot({ path: `/tmp/shots/${name}.png` });
  } else {
    await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: opts.full ?? false });
  }
  await ctx.close();
}
await shot("renting-desktop", "/", {}, "fieldset:has(legend:text('Renting'))");
await shot("renting-phone", "/", { w: 390, h: 844 }, "fieldset:has(legend:text('Renting'))");
await shot("renting-dark", "/", { dark: true }, "fieldset:has(legend:text('Renting'))");
await shot("tiers-desktop", "/", {}, "[data-testid=more-tiers]");
await shot("data-desktop", "/data?model=muse-spark-open&for=requests%3D7M&show=offers#data-search", { h: 1000 });
await shot("data-search", "/data?q=provider-4&model=muse-spark-open&for=requests%3D7M#offers", { h: 900 });
await shot("data-phone", "/data?model=muse-spark-open&for=requests%3D7M#offers", { w: 390, h: 844 });
await shot("data-dark", "/data?q=provider&for=requests%3D7M#offers", { dark: true, h: 900 });
await shot("options-note", "/options?requests=7M", { h: 900 }, "[data-testid=options-offers-left-out]");
const ctx = await browser.newContext();
const page = await ctx.newPage();
await page.goto(base + "/data?q=provider-4#offers");
await page.pdf({ path: "/tmp/shots/data-print.pdf", format: "A4" });
await browser.close();
