import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, test } from "@playwright/test";

// A saved link keeps its numbers when an import brings new data, says so, and shows both results.
// The test runs its own server on its own database (an import changes the data every other test
// reads), and imports with the real command against that database, as an operator would.

const root = resolve(__dirname, "../..");
const binary = process.env.SERVECOST_BIN ?? join(root, "target/release/servecost-server");

let server: ChildProcess;
let dir: string;
let base: string;
let env: NodeJS.ProcessEnv;

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "servecost-revision-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  env = {
    ...process.env,
    LEPTOS_SITE_ADDR: `127.0.0.1:${port}`,
    DATABASE_URL: `sqlite://${join(dir, "servecost.db")}`,
    RUST_LOG: "warn",
  };
  server = spawn(binary, [], { cwd: root, env, stdio: "ignore" });
  await expect
    .poll(
      async () => {
        try {
          return (await fetch(`${base}/healthz`)).status;
        } catch {
          return 0;
        }
      },
      { timeout: 20_000 },
    )
    .toBe(200);
});

test.afterAll(async () => {
  server?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("a saved link keeps its numbers after an import and shows the current ones beside them", async ({
  page,
}) => {
  // Save a scenario with the published data.
  await page.goto(`${base}/?requests=20M`);
  await page.locator("#save-name").fill("Before the price cut");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/s\/[0-9A-Za-z]{12}$/);
  const link = page.url();
  const pinned = Number(await page.getByTestId("rent-monthly").getAttribute("data-usd"));
  expect(pinned).toBeGreaterThan(0);
  await expect(page.getByTestId("newer-data")).toHaveCount(0);

  // The operator imports a price cut: the API's input price halves.
  const file = join(dir, "price-cut.json");
  writeFileSync(
    file,
    JSON.stringify({
      api_offers: [
        {
          id: "muse-spark-open-api",
          model: "muse-spark-open",
          name: "Muse Spark Open API (list price)",
          price_in: 0.625,
          price_out: 4.25,
          cache_discount: 0.88,
          markup: 0,
          speed_tps: 142.9,
          source: "aa-model-page",
          note: "Price cut imported by the end-to-end test.",
        },
      ],
    }),
  );
  const out = execFileSync(binary, ["import", "--description", "Price cut", file], {
    cwd: root,
    env,
    encoding: "utf8",
  });
  expect(out).toContain("Wrote dataset revision 2");

  // The running server picks the revision up by itself; the link still shows its numbers.
  await expect
    .poll(
      async () => {
        await page.goto(link);
        return page.getByTestId("newer-data").count();
      },
      { timeout: 15_000 },
    )
    .toBe(1);
  expect(Number(await page.getByTestId("rent-monthly").getAttribute("data-usd"))).toBe(pinned);
  await expect(page.getByTestId("saved")).toHaveAttribute("data-revision", "1");
  const comparison = page.getByTestId("comparison");
  await expect(comparison).toContainText("Saved (revision 1)");
  await expect(comparison).toContainText("Current data (revision 2)");

  // One click to the same scenario with the current data: renting is cheaper there.
  await page.getByRole("link", { name: "see with current data" }).click();
  await expect(page).toHaveURL(/requests=20M/);
  const current = Number(await page.getByTestId("rent-monthly").getAttribute("data-usd"));
  expect(current).toBeLessThan(pinned);
  const api = await (await fetch(`${base}/api/v1/evaluate?requests=20M`)).json();
  expect(api.dataset_revision).toBe(2);
  expect(current).toBeCloseTo(api.rent.monthly_usd, 6);

  // /data lists the revision with its file.
  await page.goto(`${base}/data`);
  const revisions = page.getByTestId("revisions");
  await expect(revisions).toContainText("Price cut");
  await expect(revisions).toContainText("price-cut.json");
});
