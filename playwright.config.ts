import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { findChromium } from './e2e/find-chromium';

/**
 * End-to-end tests against the built app served by `vite preview` (run `npm run build` first;
 * `npm run test:e2e` does both), in the system's Chromium when there is one (/usr/bin/chromium or
 * `chromium` on PATH) and otherwise in the Chromium inside the npm package @sparticuz/chromium (a
 * devDependency; E2E_CHROMIUM=bundled picks it anyway) — never a downloaded browser. See
 * e2e/find-chromium.ts for why the launch arguments are ours and not the package's.
 */
const CHROMIUM = findChromium(path.dirname(fileURLToPath(import.meta.url)));
// the config is loaded by the runner and again by every worker process: say it once
if (process.env.TEST_WORKER_INDEX === undefined) console.log(`e2e browser: ${CHROMIUM.description}`);
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
  // the last lines count the skipped tests by reason, as the vitest runs count theirs (tests/helpers/report-e2e-skips.ts)
  reporter: [['list'], ['./tests/helpers/report-e2e-skips.ts']],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    browserName: 'chromium',
    headless: true,
    acceptDownloads: true,
    // the built app registers a service worker that stores the whole build (35 MB, DuckDB's WebAssembly
    // most of it) on a first visit: only e2e/static-site.spec.ts, which tests it, lets it run
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: CHROMIUM.executablePath,
      ...(CHROMIUM.env ? { env: CHROMIUM.env } : {}),
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
