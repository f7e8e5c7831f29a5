// Measures the first load of the calculator as a person feels it: from navigation to the page
// being interactive (the layout's `data-hydrated`, set by the first effect that runs once the
// page is hydrated) and to its largest contentful paint, with an empty cache, in Chromium.
// Two settings: a phone (390 x 844, CPU 4x slower, 1.6 Mbit/s down, 750 kbit/s up, 150 ms
// latency, through the DevTools protocol) and a desktop (no throttling). Each load is a new
// scenario (the server renders every one), RUNS loads each; prints the median and the worst,
// and the bytes the browser fetched, per kind, as JSON. scripts/perf runs it against a release
// build.
import { chromium } from "@playwright/test";

const base = process.env.SERVECOST_URL ?? "http://127.0.0.1:3000";
const runs = Number(process.env.RUNS ?? 5);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});

// Records, in the page, when `data-hydrated` turns true and the largest contentful paint.
const watch = () => {
  window.__load = { hydrated: null, lcp: null };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__load.lcp = e.startTime;
  }).observe({ type: "largest-contentful-paint", buffered: true });
  const seen = () => {
    if (window.__load.hydrated === null && document.querySelector("[data-hydrated=true]")) {
      window.__load.hydrated = performance.now();
      return true;
    }
    return false;
  };
  new MutationObserver((_, observer) => {
    if (seen()) observer.disconnect();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-hydrated"], childList: true });
};

async function load(setting, i) {
  const context = await browser.newContext(
    setting.phone ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 900 } },
  );
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  if (setting.phone) {
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6e6 / 8),
      uploadThroughput: (750e3 / 8),
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  }
  const bytes = {};
  cdp.on("Network.loadingFinished", (e) => {
    bytes[e.requestId] = { ...(bytes[e.requestId] ?? {}), size: e.encodedDataLength };
  });
  cdp.on("Network.responseReceived", (e) => {
    bytes[e.requestId] = { ...(bytes[e.requestId] ?? {}), type: e.type, url: e.response.url };
  });
  await page.addInitScript(watch);
  // Another scenario each load: the server renders each page anew.
  await page.goto(`${base}/?requests=${20 + i}M`, { waitUntil: "commit" });
  await page.locator("[data-hydrated=true]").waitFor({ timeout: 60_000 });
  await page.waitForTimeout(200);
  const times = await page.evaluate(() => {
    // When the WASM had arrived, and the app's own measures during the load (the engine's
    // answer, the charts): what the rest of the time to interactive was spent on.
    const wasm = performance.getEntriesByType("resource").find((e) => e.name.endsWith(".wasm"));
    const spent = {};
    for (const m of performance.getEntriesByType("measure")) {
      if (m.startTime <= window.__load.hydrated) spent[m.name] = (spent[m.name] ?? 0) + m.duration;
    }
    return { ...window.__load, wasm_arrived: wasm?.responseEnd ?? null, spent };
  });
  const byKind = {};
  for (const { type, size } of Object.values(bytes)) {
    if (size !== undefined) byKind[type ?? "Other"] = (byKind[type ?? "Other"] ?? 0) + size;
  }
  await context.close();
  return { ...times, bytes: byKind };
}

const summary = {};
for (const setting of [{ name: "phone", phone: true }, { name: "desktop", phone: false }]) {
  const loads = [];
  for (let i = 0; i < runs; i++) loads.push(await load(setting, i));
  const sorted = (key) => loads.map((l) => l[key]).sort((a, b) => a - b);
  const median = (xs) => xs[Math.floor(xs.length / 2)];
  const spent = {};
  for (const name of Object.keys(loads[0].spent)) spent[name] = Math.round(median(loads.map((l) => l.spent[name] ?? 0).sort((a, b) => a - b)) * 10) / 10;
  summary[setting.name] = {
    interactive_ms: { median: Math.round(median(sorted("hydrated"))), worst: Math.round(Math.max(...sorted("hydrated"))) },
    largest_contentful_paint_ms: Math.round(median(sorted("lcp"))),
    wasm_arrived_ms: Math.round(median(sorted("wasm_arrived"))),
    app_measures_until_interactive_ms: spent,
    bytes: loads[0].bytes,
  };
}
await browser.close();
console.log(JSON.stringify(summary, null, 1));
