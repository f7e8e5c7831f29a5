// Measures how long one input change takes in the browser, engine and DOM update together:
// from the input event to the DOM holding the new result (a MutationObserver fires), over many
// edits of the GPU-hour price; then to the full answer (sureness figures, flips and charts, a
// task later: the layout's data-settled, and the charts drawn, data-drawn). Also reads the engine-only User Timing measures the app records
// ("servecost:evaluate"). Prints JSON; scripts/perf runs it against a release build.
import { chromium } from "@playwright/test";

const base = process.env.SERVECOST_URL ?? "http://127.0.0.1:3000";
const runs = Number(process.env.RUNS ?? 200);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const page = await browser.newPage();
await page.goto(`${base}/?requests=20M`);
await page.locator("[data-hydrated=true]").waitFor({ timeout: 20_000 });

const result = await page.evaluate(async (runs) => {
  const value = () => document.querySelector("[data-testid=self-monthly]")?.getAttribute("data-usd");
  const total = [];
  const full = [];
  performance.clearMeasures("servecost:evaluate");
  performance.clearMeasures("servecost:chart");
  for (let i = 0; i < runs + 10; i++) {
    const input = document.querySelector("#f-gpu_hour");
    const before = value();
    const done = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (value() !== before) {
          observer.disconnect();
          resolve(performance.now());
        }
      });
      observer.observe(document.querySelector(".results"), { subtree: true, childList: true, attributes: true });
    });
    const layout = document.querySelector(".layout");
    const t0 = performance.now();
    input.value = (2 + (i % 50) * 0.05 + (i % 2) * 0.013).toFixed(3);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    const t1 = await done;
    // The full answer (sureness figures, flips) follows a task later, and the charts drawn from
    // it once their code is in (each chart made after the edit is marked data-drawn when drawn).
    const complete = () =>
      layout.getAttribute("data-settled") === "true" &&
      [...document.querySelectorAll(".results figure.chart .svg")].every((d) => d.hasAttribute("data-drawn"));
    const t2 = await new Promise((resolve) => {
      if (complete()) return resolve(performance.now());
      const observer = new MutationObserver(() => {
        if (complete()) {
          observer.disconnect();
          resolve(performance.now());
        }
      });
      observer.observe(layout, { attributes: true, subtree: true });
    });
    if (i >= 10) {
      total.push(t1 - t0); // the first edits warm the JIT
      full.push(t2 - t0);
    }
    await new Promise((r) => requestAnimationFrame(() => r()));
  }
  const engine = performance.getEntriesByName("servecost:evaluate").map((e) => e.duration).slice(10);
  // Every chart of the page is drawn again after each edit: sum them per edit.
  const n = document.querySelectorAll(".results figure.chart").length;
  const charts = performance.getEntriesByName("servecost:chart").map((e) => e.duration);
  const perEdit = [];
  for (let k = 0; k + n <= charts.length; k += n) perEdit.push(charts.slice(k, k + n).reduce((a, b) => a + b, 0));
  const pct = (xs, p) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
  };
  return {
    runs: total.length,
    update_ms: { p50: pct(total, 50), p95: pct(total, 95), max: Math.max(...total) },
    full_answer_ms: { p50: pct(full, 50), p95: pct(full, 95), max: Math.max(...full) },
    decision_engine_ms: (() => {
      const d = performance.getEntriesByName("servecost:decision").map((e) => e.duration).slice(10);
      return { p50: pct(d, 50), p95: pct(d, 95) };
    })(),
    engine_ms: { p50: pct(engine, 50), p95: pct(engine, 95) },
    charts_ms: { p50: pct(perEdit.slice(10), 50), p95: pct(perEdit.slice(10), 95) },
  };
}, runs);
console.log(JSON.stringify(result, null, 2));
await browser.close();
