import { expect, test } from "@playwright/test";
import { ready, settled } from "./helpers";

/** Text without any whitespace: a PDF's text runs split and join words their own way. */
const squeezed = (text: string) => text.replace(/\s+/g, "");

// A finance lead prints the answer for a board pack: an A4 report of at most four pages, the
// verdict and the decision figures on the first, the inputs as a table rather than the form, no
// buttons or embed code, the sources at the end. Read back from the PDF itself.
test("printed to A4 the calculator is a report of at most four pages, the verdict on page 1", async ({ page, javaScriptEnabled }) => {
  await page.goto("/");
  await ready(page, javaScriptEnabled);
  await settled(page);
  const best = squeezed(await page.getByTestId("best").innerText());
  const verdict = squeezed(await page.getByTestId("verdict").innerText()).slice(0, 80);
  const rent = await page.getByTestId("rent-monthly").locator(".amount").innerText();

  const pdf = await page.pdf({ format: "A4" });
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await getDocument({ data: new Uint8Array(pdf), disableFontFace: true, verbosity: 0 }).promise;
  expect(doc.numPages).toBeLessThanOrEqual(4);
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(squeezed(content.items.map((i) => ("str" in i ? i.str : "")).join("")));
  }
  const all = pages.join("");
  // Page 1: the cheapest plan, the verdict and the bill's totals.
  expect(pages[0]).toContain(best);
  expect(pages[0]).toContain(verdict);
  expect(pages[0]).toContain(squeezed(rent));
  // The inputs as a summary table, not the form; no buttons, no embed code, no save form.
  expect(all).toContain("Inputsinforce");
  expect(all).not.toContain("Accepted:");
  expect(all).not.toContain("<iframe");
  expect(all).not.toContain("Savewithashortlink");
  expect(all).not.toContain("Copylink");
  // The sources close the report.
  expect(pages[pages.length - 1]).toContain("Sources");
  // The charts print whole: axis titles, legends and the labels of their marks, text the page
  // holds nowhere but in its charts.
  expect(all).toContain("Tokenspermonth");
  expect(all).toContain("Yourscenario");
  expect(all).toMatch(/target[\d.]+tokens\/s/);
});
