import { execFileSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { binary, ready, root, startServer as start } from "./helpers";

// A saved link keeps its numbers when an import brings new data, says so, and shows both results.
// Each engine gets servers and a database of their own (an import changes the data every other
// test reads), and the import runs with the real command, as an operator would. On PostgreSQL
// (when SERVECOST_TEST_POSTGRES names a server) two replicas share the database: the scenario is
// saved on one and reopened on the other, after an import neither of them ran.

const postgres = process.env.SERVECOST_TEST_POSTGRES;

const engines = ["sqlite", ...(postgres ? ["postgres"] : [])];

for (const engine of engines) {
  test.describe(engine, () => {
    let dir: string;
    let database: string;
    let dropDatabase = () => {};
    const servers: { base: string; process: ChildProcess }[] = [];

    test.beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "servecost-revision-"));
      if (engine === "postgres" && postgres) {
        const name = `servecost_e2e_${process.pid}_${test.info().project.name.replace(/\W/g, "_")}`;
        const psql = (sql: string) => execFileSync("psql", [postgres, "-qc", sql], { stdio: "ignore" });
        psql(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        psql(`CREATE DATABASE "${name}"`);
        database = postgres.replace(/\/[^/]*$/, `/${name}`);
        dropDatabase = () => psql(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        // The first replica applies the migrations; the second finds them applied.
        servers.push(await start(database));
        servers.push(await start(database));
      } else {
        database = `sqlite://${join(dir, "servecost.db")}`;
        servers.push(await start(database));
      }
    });

    test.afterAll(async () => {
      for (const s of servers) s.process.kill();
      await new Promise((done) => setTimeout(done, 200));
      dropDatabase();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test("a saved link keeps its numbers after an import and shows the current ones beside them", async ({
      page,
      javaScriptEnabled,
    }) => {
      const first = servers[0].base;
      const last = servers[servers.length - 1].base;
      // The revision the migrations bring: the import writes the next one.
      const seeded = (await (await fetch(`${first}/api/v1/evaluate?requests=20M`)).json()).dataset_revision;
      expect(seeded).toBeGreaterThan(0);
      // Save a scenario with the published data.
      await page.goto(`${first}/?requests=20M`);
      await ready(page, javaScriptEnabled);
      await page.locator("#save-name").fill("Before the price cut");
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page).toHaveURL(/\/s\/[0-9A-Za-z]{12}$/);
      const path = new URL(page.url()).pathname;
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
        env: { ...process.env, DATABASE_URL: database },
        encoding: "utf8",
      });
      expect(out).toContain(`Wrote dataset revision ${seeded + 1}`);

      // The import writes the revision after the seed. The running servers pick it up by themselves; the link keeps its numbers.
      await expect
        .poll(
          async () => {
            await page.goto(`${last}${path}`);
            return page.getByTestId("newer-data").count();
          },
          { timeout: 15_000 },
        )
        .toBe(1);
      expect(Number(await page.getByTestId("rent-monthly").getAttribute("data-usd"))).toBe(pinned);
      await expect(page.getByTestId("saved")).toHaveAttribute("data-revision", String(seeded));
      const comparison = page.getByTestId("comparison");
      await expect(comparison).toContainText(`Saved (revision ${seeded})`);
      await expect(comparison).toContainText(`Current data (revision ${seeded + 1})`);

      // One click to the same scenario with the current data: renting is cheaper there.
      await page.getByRole("link", { name: "see with current data" }).click();
      await expect(page).toHaveURL(/requests=20M/);
      const current = Number(await page.getByTestId("rent-monthly").getAttribute("data-usd"));
      expect(current).toBeLessThan(pinned);
      const api = await (await fetch(`${last}/api/v1/evaluate?requests=20M`)).json();
      expect(api.dataset_revision).toBe(seeded + 1);
      expect(current).toBeCloseTo(api.rent.monthly_usd, 6);

      // /data lists the revision with its file.
      await page.goto(`${last}/data`);
      const revisions = page.getByTestId("revisions");
      await expect(revisions).toContainText("Price cut");
      await expect(revisions).toContainText("price-cut.json");
    });
  });
}
