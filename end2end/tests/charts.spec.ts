import { expect, test, type Locator, type Page } from "@playwright/test";
import { apply, ready, settled } from "./helpers";

/** Every chart of the calculator, by the test id of its figure. */
const CHARTS = ["volume", "years", "classes", "breakdown", "tps", "tornado"];

/**
 * What the layout check finds wrong in one chart (empty when nothing is). `spoil` first breaks
 * the chart on purpose, to show the check catches it: "legend" moves the legend onto the middle
 * of the plot, "series" hides every mark of the legend's first series, "text" sets one label on
 * another.
 */
async function layoutProblems(page: Page, id: string, spoil?: "legend" | "series" | "text", root?: Locator): Promise<string[]> {
  const svg = root ?? page.getByTestId(`chart-${id}`).locator(".svg svg");
  await expect(svg, `${id} is drawn`).toBeVisible();
  await svg.scrollIntoViewIfNeeded();
  return svg.evaluate((root: SVGSVGElement, spoil) => {
    type Box = { left: number; top: number; right: number; bottom: number };
    const problems: string[] = [];
    const box = (e: Element): Box => e.getBoundingClientRect();
    // Boxes touching by less than a pixel (antialiasing, rounding) do not count.
    const overlap = (a: Box, b: Box) =>
      Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
      Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
    const inside = (e: Element, sel: string) => e.closest(sel) !== null;
    const upper = (v: string | null) => (v ?? "").toUpperCase();

    const texts = [...root.querySelectorAll("text")].filter((t) => (t.textContent ?? "").trim() !== "");
    if (spoil === "text") {
      for (const a of ["x", "y", "dy", "text-anchor", "transform"]) {
        const v = texts[0].getAttribute(a);
        if (v === null) texts[1].removeAttribute(a);
        else texts[1].setAttribute(a, v);
      }
    }
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) {
        if (overlap(box(texts[i]), box(texts[j]))) {
          problems.push(`text "${texts[i].textContent?.trim()}" overlaps "${texts[j].textContent?.trim()}"`);
        }
      }
    }

    const legend = root.querySelector("g.chart-legend");
    if (!legend) return [...problems, "no legend"];
    const colours = new Set<string>();
    for (const s of legend.querySelectorAll("line, rect")) colours.add(upper(s.getAttribute("stroke") ?? s.getAttribute("fill")));
    if (colours.size < 2) problems.push(`the legend names ${colours.size} series`);
    if (spoil === "legend") {
      const [w, h] = [root.viewBox.baseVal.width, root.viewBox.baseVal.height];
      legend.setAttribute("transform", `translate(${w / 4} ${h / 2})`);
    }
    if (spoil === "series") {
      const first = [...colours][0];
      for (const e of root.querySelectorAll("*")) {
        if (!e.closest("g.chart-legend") && (upper(e.getAttribute("stroke")) === first || upper(e.getAttribute("fill")) === first)) e.setAttribute("visibility", "hidden");
      }
    }
    const whole = box(root);
    // A data mark: a shape drawn in a series' colour, opaque enough to read, not the background.
    const marks = [...root.querySelectorAll("polyline, rect, line, path, circle, polygon")].filter((e) => {
      if (inside(e, "g.chart-legend, g.chart-hover, g.chart-marks")) return false;
      const colour = upper(e.getAttribute("stroke")) || upper(e.getAttribute("fill"));
      const fill = upper(e.getAttribute("fill"));
      const opacity = Number(e.getAttribute("opacity") ?? "1");
      const b = box(e);
      const background = b.right - b.left >= whole.right - whole.left - 1;
      return (colours.has(colour) || colours.has(fill)) && opacity >= 0.3 && !background;
    });
    if (marks.length < colours.size) problems.push(`${marks.length} data marks for ${colours.size} series`);
    const legendBox = box(legend);
    for (const m of marks) {
      if (overlap(legendBox, box(m))) problems.push(`the legend covers a ${m.tagName} ${m.getAttribute("stroke") ?? m.getAttribute("fill")}`);
    }
    // No text over a bar.
    for (const t of texts) {
      for (const m of marks.filter((m) => m.tagName === "rect")) {
        if (overlap(box(t), box(m))) problems.push(`text "${t.textContent?.trim()}" lies over a bar`);
      }
    }

    // Every series the legend names shows at least one mark on top of whatever else is drawn
    // (hover targets and text aside), sampled along its shape and a little to either side.
    const ctm = root.getScreenCTM();
    if (!ctm) return [...problems, "no screen transform"];
    const onScreen = (x: number, y: number) => {
      const p = new DOMPoint(x, y).matrixTransform(ctm);
      return [p.x, p.y];
    };
    const samples = (e: Element): [number, number][] => {
      if (e.tagName === "polyline") {
        const pts = (e.getAttribute("points") ?? "").trim().split(/\s+/).map((p) => p.split(",").map(Number) as [number, number]);
        const out: [number, number][] = [];
        for (let i = 0; i + 1 < pts.length; i++) {
          for (const f of [0.25, 0.5, 0.75]) out.push([pts[i][0] + f * (pts[i + 1][0] - pts[i][0]), pts[i][1] + f * (pts[i + 1][1] - pts[i][1])]);
        }
        return out;
      }
      if (e.tagName === "line") {
        const [x1, y1, x2, y2] = ["x1", "y1", "x2", "y2"].map((a) => Number(e.getAttribute(a)));
        return [0.25, 0.5, 0.75].map((f) => [x1 + f * (x2 - x1), y1 + f * (y2 - y1)]);
      }
      const b = (e as SVGGraphicsElement).getBBox();
      return [[b.x + b.width / 2, b.y + b.height / 2]];
    };
    for (const colour of colours) {
      const own = marks.filter((m) => upper(m.getAttribute("stroke")) === colour || upper(m.getAttribute("fill")) === colour);
      const seen = own.some((m) =>
        samples(m).some(([x, y]) =>
          [0, -1, 1].some((dy) => {
            const [cx, cy] = onScreen(x, y + dy);
            const top = document
              .elementsFromPoint(cx, cy)
              .find((e) => root.contains(e) && e !== root && e.tagName !== "text" && !inside(e, "g.chart-hover"));
            return top === m;
          }),
        ),
      );
      if (!seen) problems.push(`no visible mark of the series in ${colour}`);
    }
    return problems;
  }, spoil);
}

/** The smallest chart text on screen, in CSS pixels. */
async function smallestText(page: Page, scope: string) {
  return page.locator(`${scope} svg`).evaluateAll((svgs) =>
    Math.min(
      ...svgs.flatMap((svg) => {
        const scale = (svg as SVGSVGElement).getScreenCTM()?.a ?? 0;
        return [...svg.querySelectorAll("text")].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
      }),
    ),
  );
}

for (const scheme of ["light", "dark"] as const) {
  for (const [width, height] of [
    [1366, 768],
    [390, 844],
  ]) {
    test.describe(`${width} px, ${scheme}`, () => {
      test.use({ viewport: { width, height }, colorScheme: scheme });

      // Every chart of the page as the user first sees it, and after they type a volume at which
      // self-hosting wins (other fleet sizes, marks and legends): no text over text
      // or over a bar, the legend clear of the data, every series in the legend visible, text
      // of 11 px or more, nothing wider than the screen.
      test("charts: no text over text, the legend clear of the data, every series visible", async ({ page, javaScriptEnabled }) => {
        await page.goto("/");
        await ready(page, javaScriptEnabled);
        for (const requests of ["", "20M"]) {
          if (requests) {
            await page.getByLabel("Requests per month").fill(requests);
            await apply(page, javaScriptEnabled);
            await expect(page).toHaveURL(/requests=20M/);
            await settled(page);
          }
          for (const id of CHARTS) {
            expect(await layoutProblems(page, id), `${id} at ${width} px, ${scheme}, requests ${requests || "default"}`).toEqual([]);
          }
          expect(await smallestText(page, "figure.chart")).toBeGreaterThanOrEqual(11);
          // The check can fail: a legend moved over the data and a hidden series are caught.
          if (!requests) {
            expect(await layoutProblems(page, "volume", "legend")).toContainEqual(expect.stringMatching(/^the legend covers/));
            await page.reload();
            expect(await layoutProblems(page, "breakdown", "series")).toContainEqual(expect.stringMatching(/^no visible mark/));
            await page.reload();
            expect(await layoutProblems(page, "tps", "text")).toContainEqual(expect.stringMatching(/^text .* overlaps/));
            await page.reload();
            await ready(page, javaScriptEnabled);
          }
          const wide = await page.evaluate(() =>
            [...document.querySelectorAll("body *")]
              .filter((e) => e.checkVisibility() && (e.getBoundingClientRect().right > window.innerWidth + 0.5 || e.getBoundingClientRect().left < -0.5))
              .map((e) => `${e.tagName}.${e.getAttribute("class") ?? ""}`),
          );
          expect(wide, "elements wider than the screen").toEqual([]);
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        }
      });
    });
  }
}

// On a desktop the answer and the bill are on the first screen, without scrolling.
test.describe("1366 x 768", () => {
  test.use({ viewport: { width: 1366, height: 768 } });
  test("the verdict and the bill are above the fold", async ({ page }) => {
    await page.goto("/");
    for (const id of ["best", "verdict", "rent-monthly", "self-monthly", "bill-total"]) {
      const b = await page.getByTestId(id).boundingBox();
      expect(b, id).not.toBeNull();
      expect(b!.y + b!.height, `${id} ends above 768 px`).toBeLessThanOrEqual(768);
    }
  });
});

// The charts as SVG files, from the page's own export links: every line of text, the title's
// included, inside the file's width.
test("exported charts keep their text inside their width", async ({ page }) => {
  await page.goto("/");
  const links = await page.locator('a[href^="/api/v1/charts/"]').evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
  expect(links.length).toBe(CHARTS.length);
  for (const href of links) {
    await page.goto(href);
    const outside = await page.locator("svg").first().evaluate((svg: SVGSVGElement) => {
      const edge = svg.getBoundingClientRect();
      return [...svg.querySelectorAll("text")]
        .filter((t) => {
          const b = t.getBoundingClientRect();
          return b.right > edge.right + 0.5 || b.left < edge.left - 0.5;
        })
        .map((t) => t.textContent);
    });
    expect(outside, href).toEqual([]);
  }
});

// A wiki frames the embed the calculator offers at 600 x 400: its chart text is 11 px or more,
// and no text of its chart over another (its short charts take fewer axis labels).
test.describe("600 x 400 embed", () => {
  test.use({ viewport: { width: 600, height: 400 } });
  test("the embed's chart text is at least 11 px, none over another", async ({ page }) => {
    await page.goto("/");
    const snippet = await page.locator("#embed-code").inputValue();
    const src = /src="([^"]+)"/.exec(snippet)?.[1];
    expect(src, snippet).toBeTruthy();
    for (const chart of CHARTS) {
      const url = new URL(src!.replace(/&amp;/g, "&"));
      url.searchParams.set("chart", chart);
      await page.goto(url.pathname + url.search);
      await expect(page.getByTestId("embed").locator("svg")).toHaveCount(1);
      expect(await smallestText(page, "[data-testid=embed] figure"), chart).toBeGreaterThanOrEqual(11);
      const problems = await layoutProblems(page, chart, undefined, page.getByTestId("embed").locator("figure svg"));
      expect(problems.filter((p) => p.startsWith("text")), chart).toEqual([]);
    }
  });
});
