import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiReport, apply, ownLink, ready, settled, unfold } from "./helpers";

/** Types 20 M requests a month at an on-demand GPU-hour of $2.35, sized by the hour. */
async function onDemandHourly(page: Page, js: boolean | undefined) {
  await page.getByLabel("Requests per month").fill("20M");
  await page.getByLabel(/^GPU-hour price/).fill("2.35");
  await unfold(page, "Fleet", js);
  await page.getByLabel("Sizing").selectOption("hourly");
}

/** Text without any whitespace: a PDF's text runs split and join words their own way. */
const squeezed = (text: string) => text.replace(/\s+/g, "");

/** The text of each page of the page's A4 print. */
async function printed(page: Page): Promise<string[]> {
  await page.emulateMedia({ media: "print" });
  const pdf = await page.pdf({ format: "A4" });
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await getDocument({ data: new Uint8Array(pdf), disableFontFace: true, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(squeezed(content.items.map((i) => ("str" in i ? i.str : "")).join("")));
  }
  await page.emulateMedia({ media: "screen" });
  return pages;
}

/**
 * Every table the print shows lies on one page: the first cell of its first row and the first
 * cell of its last row are printed on the same page.
 */
async function noTableSplit(page: Page, pages: string[]) {
  await page.emulateMedia({ media: "print" });
  const ends: [string, string][] = await page.locator("table").evaluateAll((tables) =>
    tables
      .filter((t) => (t as HTMLElement).offsetParent !== null && t.getBoundingClientRect().height > 0)
      .map((t) => {
        const rows = Array.from((t as HTMLTableElement).rows).filter((r) => (r as HTMLElement).offsetParent !== null);
        const first = (r: HTMLTableRowElement | undefined) =>
          Array.from(r?.cells ?? []).map((c) => (c as HTMLElement).innerText.trim()).find((s) => s.length > 0) ?? "";
        return [first(rows[0]), first(rows[rows.length - 1])] as [string, string];
      })
      .filter(([a, b]) => a.length > 0 && b.length > 0),
  );
  await page.emulateMedia({ media: "screen" });
  expect(ends.length).toBeGreaterThan(3);
  for (const [a, b] of ends) {
    const together = pages.some((p) => p.includes(squeezed(a)) && p.includes(squeezed(b)));
    expect(together, `a table from “${a}” to “${b}” is split across pages`).toBe(true);
  }
}

/** The saved record's inputs in force, from its CSV (`in_force,name,value,shown,source`). */
async function recordInputs(request: APIRequestContext, id: string) {
  const csv = await (await request.get(`/api/v1/scenarios/${id}/export.csv`)).text();
  const cells = (line: string) => {
    const out: string[] = [];
    let cell = "";
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quoted && ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = !quoted;
      else if (ch === "," && !quoted) {
        out.push(cell);
        cell = "";
      } else cell += ch;
    }
    out.push(cell);
    return out;
  };
  const rows = csv.split("\n").filter((l) => l.startsWith("in_force,")).map(cells);
  return { csv, inputs: rows.map(([, name, value, shown, source]) => ({ name, value, shown, source })) };
}

// A finance lead records a decision for the CFO: owned hardware, a volume that grows 8 % a
// month, last month's invoice. The saved page, its print and its CSV state every input in
// force (typed or default, the default's source), the link and the dataset revision; both
// prints fit four A4 pages with no table split across a page break.
test("a saved scenario is a decision record: every input in force, the link, four pages at most", async ({ page, request, javaScriptEnabled: js }) => {
  await page.goto("/");
  await ready(page, js);
  await page.getByLabel("Requests per month").fill("2M");
  await page.getByLabel("API bill last month").fill("$13,900");
  await page.getByLabel(/^Growth of the monthly volume/).fill("150%");
  await page.getByLabel("GPUs", { exact: true }).selectOption("1");
  await apply(page, js);
  await page.getByLabel("Purchase price per GPU").fill("45,000");
  await apply(page, js);
  await expect(page.getByTestId("owned-total")).toBeVisible();
  await settled(page);
  const query = await ownLink(page);
  const api = await apiReport(request, query);
  expect(api.inputs.gpu_hour_source).toBe("owned");

  // The calculator's own print: four pages at most, nothing split, the inputs in force in it.
  const calculatorPrint = await printed(page);
  expect(calculatorPrint.length).toBeLessThanOrEqual(4);
  await noTableSplit(page, calculatorPrint);
  expect(calculatorPrint.join("")).toContain("Inputsinforce");

  await page.locator("#save-name").fill(`Record ${test.info().project.name}`);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/s\/[0-9A-Za-z]{12}$/);
  const id = page.url().split("/s/")[1];
  const saved = await (await request.get(`/api/v1/scenarios/${id}`)).json();
  expect(saved.report.rent.monthly_usd).toBeCloseTo(api.rent.monthly_usd, 6);

  // Every input in force, as the record's CSV lists it, is on the page with its value and
  // whether it was typed; those typed here among them.
  const { csv, inputs } = await recordInputs(request, id);
  for (const name of ["requests", "bill", "growth", "capex", "own", "pue", "kw", "prefill", "tie"]) {
    expect(inputs.map((i) => i.name)).toContain(name);
  }
  const table = page.getByTestId("inputs-in-force");
  await expect(table).toBeVisible();
  for (const input of inputs) {
    const row = table.locator(`tr[data-name="${input.name}"]`);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(input.shown);
    await expect(row).toHaveAttribute("data-origin", input.source === "yours" ? "yours" : "default");
  }
  for (const typed of ["bill", "growth", "capex", "requests"]) {
    expect(inputs.find((i) => i.name === typed)?.source).toBe("yours");
  }
  expect(inputs.find((i) => i.name === "pue")?.source).toBe("default: servecost-assumptions");
  await expect(table.locator('tr[data-name="bill"]')).toContainText("$13,900 per month");
  const link = await page.getByTestId("record-link").innerText();
  expect(new URL(link).pathname).toBe(`/s/${id}`);
  await expect(table).toContainText(`dataset revision ${saved.revision}`);
  // The CSV carries the record too: its name, link, decision, warnings and sources.
  expect(csv).toContain(`saved,link,${link}`);
  expect(csv).toContain(`decision,best,${api.verdict.best}`);
  expect(csv).toMatch(/\nsource,/);

  // Its print: at most four pages, nothing split, every input in force and the link.
  const pages = await printed(page);
  expect(pages.length).toBeLessThanOrEqual(4);
  await noTableSplit(page, pages);
  const all = pages.join("");
  for (const input of inputs) expect(all, input.name).toContain(squeezed(input.shown));
  expect(all).toContain(squeezed(link));
  expect(all).toContain(squeezed(await page.getByTestId("best").innerText()));
});

// An infra lead embeds the answer in a wiki at 600 × 400: the frame says how many ways to
// change the answer it leaves out, and shows the 3-year answer when it reverses this month's.
test("the embed says what it leaves out and shows a 3-year reversal inside 600 x 400", async ({ page, request, javaScriptEnabled: js }) => {
  await page.goto("/");
  await ready(page, js);
  await page.getByLabel("Requests per month").fill("2M");
  await page.getByLabel(/^GPU-hour price/).fill("2.1");
  await page.getByLabel(/^Growth of the monthly volume/).fill("200%");
  await apply(page, js);
  const query = await ownLink(page);
  const api = await apiReport(request, query);
  expect(api.flips.flips.length).toBeGreaterThan(3);
  expect(api.plan.best).not.toBe(api.verdict.best);
  // The page's first screen holds the reversal too.
  await page.setViewportSize({ width: 1366, height: 768 });
  const reversal = page.getByTestId("horizon-verdict");
  await expect(reversal).toContainText("the answer changes");
  for (const id of ["best", "sureness", "rent-monthly", "self-monthly"]) {
    const box = await page.getByTestId(id).first().boundingBox();
    expect(box && box.y + box.height, id).toBeLessThanOrEqual(768);
  }
  const reversalBox = await reversal.boundingBox();
  expect(reversalBox && reversalBox.y + Math.min(reversalBox.height, 60)).toBeLessThanOrEqual(768);

  const snippet = await page.locator("#embed-code").inputValue();
  const src = new URL(snippet.match(/src="([^"]+)"/)?.[1]?.replace(/&amp;/g, "&") ?? "", page.url());
  await page.setContent(`<iframe src="${new URL(src.pathname + src.search, page.url())}" width="600" height="400" style="border:0"></iframe>`);
  const frame = page.frameLocator("iframe");
  await expect(frame.getByTestId("embed")).toBeVisible();
  const more = frame.getByTestId("flips-more");
  await expect(more).toHaveAttribute("data-hidden", String(api.flips.flips.length - 3));
  await expect(more).toContainText(`${api.flips.flips.length - 3} more`);
  const horizon = frame.getByTestId("horizon-verdict");
  await expect(horizon).toHaveAttribute("data-best", api.plan.best);
  const box = await horizon.boundingBox();
  const frameBox = await page.locator("iframe").boundingBox();
  expect(box && frameBox && box.y + box.height - frameBox.y).toBeLessThanOrEqual(400);
  // The chart fills the frame's width.
  const chart = await frame.locator("figure.chart svg").boundingBox();
  expect(chart && chart.width).toBeGreaterThan(540);
});

// Two plans side by side, as an infra lead weighs them: their own on-demand price with hourly
// sizing against the dataset's reserved price. Each side is named by what distinguishes it, on
// the page and in its embed, and the inputs that differ show their values in force, formatted.
test("compare names each side by its differences and shows values in force", async ({ page, request, javaScriptEnabled: js }) => {
  await page.goto("/");
  await ready(page, js);
  await onDemandHourly(page, js);
  await apply(page, js);
  const own = await ownLink(page);
  const a = await apiReport(request, own);
  await page.getByTestId("compare-link").click();
  await expect(page).toHaveURL(/\/compare\?a=/);
  const other = "requests=20M&gpu_tier=costr";
  await page.getByLabel(/^Scenario B/).fill(other);
  await page.getByRole("button", { name: "Compare", exact: true }).click();
  const b = await apiReport(request, other);
  expect(Number(await page.getByTestId("side-a").getAttribute("data-self"))).toBeCloseTo(a.self_host.monthly_usd, 4);
  expect(Number(await page.getByTestId("side-b").getAttribute("data-self"))).toBeCloseTo(b.self_host.monthly_usd, 4);

  const titleA = page.getByTestId("side-a").getByTestId("title-a");
  const titleB = page.getByTestId("side-b").getByTestId("title-b");
  await expect(titleA).toContainText("A: $2.35 per GPU-hour");
  await expect(titleA).toContainText("hourly sizing");
  await expect(titleB).toContainText(`B: ${dollarsPerHour(b.inputs.gpu_hour_usd)} per GPU-hour`);
  await expect(titleB).toContainText("fixed sizing");
  const differing = page.getByTestId("differing-inputs");
  await expect(differing).not.toContainText("(not set)");
  await expect(differing).toContainText("$2.35 per GPU-hour");
  await expect(differing).toContainText(`${dollarsPerHour(b.inputs.gpu_hour_usd)} per GPU-hour (default)`);

  // The embed names them the same way.
  const snippet = await page.getByTestId("compare-embed-code").inputValue();
  const src = new URL((snippet.match(/src="([^"]+)"/)?.[1] ?? "").replace(/&amp;/g, "&"), page.url());
  await page.goto(src.pathname + src.search);
  await expect(page.getByTestId("title-a")).toHaveText(await titleTextOf(request, own, other, "a"));
  await expect(page.getByTestId("title-a")).toContainText("$2.35 per GPU-hour");
  await expect(page.getByTestId("title-b")).toContainText("fixed sizing");
});

/** `$4.25` as the page writes a GPU-hour price below $100. */
function dollarsPerHour(v: number) {
  return `$${v.toFixed(2)}`;
}

/** The title the compare page gives a side, for the same two links. */
async function titleTextOf(request: APIRequestContext, a: string, b: string, side: "a" | "b") {
  const html = await (await request.get(`/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`)).text();
  const m = html.match(new RegExp(`data-testid="title-${side}"[^>]*>([^<]*)<`));
  return (m?.[1] ?? "").replace(/&amp;/g, "&");
}

// An infra lead with their own benchmark and an on-demand price, sized by the hour, opens the
// ranking on a laptop and on a phone: it fits its column without a sideways scroller, and it
// lists their curve with a fixed fleet as well as the hourly one, each at the API's figure.
for (const [width, height] of [[1366, 768], [390, 844]] as const) {
  test(`the ranking fits its column at ${width} px and lists your curve fixed and hourly`, async ({ page, request, javaScriptEnabled: js }) => {
    await page.setViewportSize({ width, height });
    await page.goto("/");
    await ready(page, js);
    await onDemandHourly(page, js);
    await page.getByLabel(/Throughput curve/).selectOption("own");
    await apply(page, js);
    await page.getByLabel("Point 1: output tokens/s per user").fill("20");
    await page.getByLabel("Point 1: total tokens/s per GPU").fill("2400");
    await page.getByLabel("Point 2: output tokens/s per user").fill("40");
    await page.getByLabel("Point 2: total tokens/s per GPU").fill("1800");
    await page.getByLabel("Point 3: output tokens/s per user").fill("80");
    await page.getByLabel("Point 3: total tokens/s per GPU").fill("1000");
    await page.getByLabel("Mix the points were measured at").fill("1:0:1");
    await apply(page, js);
    const own = await ownLink(page);
    let section = page.getByTestId("options");
    await section.locator("summary").click();
    if (!js) {
      await section.getByTestId("options-link").getByRole("link").click();
      await page.waitForURL((url) => url.pathname === "/options");
      section = page.getByTestId("options");
    }
    const rows = section.getByTestId("option");
    await expect(rows.first()).toBeVisible();
    const api = await (await request.get(`/api/v1/options?${own}`)).json();
    await expect(rows).toHaveCount(api.options.length);
    // Your curve, at your price, with an hourly fleet and a fixed one: both ranked.
    for (const fleet of ["hourly fleet", "fixed fleet"]) {
      const o = api.options.find((o: any) => o.kind === "self_host" && o.plan === "Your own curve" && o.terms.startsWith("Your price") && o.terms.endsWith(fleet));
      expect(o, fleet).toBeDefined();
      await expect(rows.and(page.locator(`[data-kind="SelfHost"][data-usd="${o.monthly_usd}"]`))).toHaveCount(1);
    }
    // No sideways scroller: the table is as wide as its column.
    const fits = await section.locator("table").evaluate((t) => {
      const box = t.parentElement as HTMLElement;
      return box.scrollWidth <= box.clientWidth + 1 && t.getBoundingClientRect().right <= document.documentElement.clientWidth + 1;
    });
    expect(fits).toBe(true);
    if (width < 500) {
      // On a phone each figure carries its label, none broken inside a word.
      await expect(rows.first().locator("td[data-label=GPUs]")).toBeVisible();
      const label = await rows.first().locator("td[data-label=GPUs]").evaluate((td) => getComputedStyle(td, "::before").content);
      expect(label).toBe('"GPUs"');
    }
  });
}
