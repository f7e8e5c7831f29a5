import { defineConfig } from "@playwright/test";

// Debian's Chromium, never a downloaded browser; the server is started by scripts/test.
const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: "./tests",
  timeout: 30_000,
  retries: 0,
  workers: 2,
  reporter: [["list"]],
  use: {
    baseURL: process.env.SERVECOST_URL ?? "http://127.0.0.1:3000",
    launchOptions,
  },
  projects: [
    { name: "javascript", use: { javaScriptEnabled: true } },
    {
      name: "no-javascript",
      use: { javaScriptEnabled: false },
      testIgnore: /\.hydrate\.spec\.ts$/,
    },
  ],
});
