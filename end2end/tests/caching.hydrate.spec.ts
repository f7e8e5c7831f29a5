import { expect, test } from "@playwright/test";
import { apiReport, failOnConsoleErrors, hydrated, pageNumbers } from "./helpers";

const HASHED_WASM = /\/pkg\/servecost-[0-9a-f]{16}_bg\.wasm$/;

test("the page hydrates from the hashed bundle, kept by the browser, and revalidates", async ({ page, request }) => {
  const noErrors = failOnConsoleErrors(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  // What the server answered (a 304 shows in the browser as the stored 200) and what the
  // browser took from its own cache without asking.
  const seen: { id: string; url: string; type: string }[] = [];
  const status = new Map<string, number>();
  const fromCache = new Set<string>();
  cdp.on("Network.responseReceived", (e) =>
    seen.push({ id: e.requestId, url: e.response.url, type: e.type }),
  );
  cdp.on("Network.responseReceivedExtraInfo", (e) => status.set(e.requestId, e.statusCode));
  cdp.on("Network.requestServedFromCache", (e) => fromCache.add(e.requestId));
  const wasmResponse = page.waitForResponse((r) => HASHED_WASM.test(new URL(r.url()).pathname));

  // A person opens the calculator, types their volume and comes back to the page later.
  await page.goto("/");
  const wasm = await wasmResponse;
  await hydrated(page);
  const headers = await wasm.allHeaders();
  expect(headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  // Served compressed as built: brotli when the browser offers it, else gzip.
  const offered = (await wasm.request().allHeaders())["accept-encoding"] ?? "";
  expect(headers["content-encoding"]).toBe(offered.includes("br") ? "br" : "gzip");
  expect((await wasm.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0x61, 0x73, 0x6d]));

  await page.getByLabel("Requests per month").fill("30M");
  await expect.poll(() => new URL(page.url()).searchParams.get("requests")).toBe("30M");
  const link = page.url();

  // The link opened again from the decision document, then reloaded: the page asks with its
  // ETag and gets 304; the bundle comes from the browser's cache without a request; the CSP
  // kept with the stored page still lets its scripts run, so it hydrates again.
  await page.goto(link);
  await hydrated(page);
  seen.length = 0;
  await page.reload();
  await hydrated(page);
  const doc = seen.find((s) => s.type === "Document");
  await expect.poll(() => status.get(doc?.id ?? ""), JSON.stringify(seen)).toBe(304);
  const bundle = seen.filter((s) => /\/pkg\/servecost-[0-9a-f]{16}(_bg\.wasm|\.js|\.css)$/.test(new URL(s.url).pathname));
  expect(bundle.length, JSON.stringify(seen)).toBe(3);
  for (const file of bundle) {
    expect(fromCache.has(file.id) || !status.has(file.id), file.url).toBe(true);
  }

  // And its numbers are still the API's for its own link.
  const api = await apiReport(request, new URL(link).search.replace(/^\?/, ""));
  const shown = await pageNumbers(page);
  expect(shown.winner).toBe(api.verdict.winner);
  expect(shown.rent).toBeCloseTo(api.rent.monthly_usd, 6);
  noErrors();
});
