import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium (/usr/bin/chromium; `apt-get install chromium`), never a
 * downloaded browser, against the built app served by `vite preview` (run `npm run build` first;
 * `npm run test:e2e` does both).
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4319);
/** the built app to serve (default `dist`, what `npm run build` writes); set E2E_OUT_DIR to test another build */
const OUT_DIR = process.env.E2E_OUT_DIR ?? 'dist';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 90_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    browserName: 'chromium',
    headless: true,
    acceptDownloads: true,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    },
    viewport: { width: 1400, height: 900 },
  },
  webServer: {
    // --bypass-lock: other previews of this checkout (other engineers, CI jobs) must not stop the suite
    command: `npx vite preview --outDir ${JSON.stringify(OUT_DIR)} --port ${E2E_PORT} --strictPort --bypass-lock`,
    url: `http://localhost:${E2E_PORT}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
