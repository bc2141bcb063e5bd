/**
 * Figure 9's app side: the time from dropping a savepoint zip together with the new job's jar on the
 * app (headless Chromium, the real file input) to the schema being ready in the worker — the
 * header check has read the jar (hashed for the report's inputs, central directory, candidate
 * classes) and the Overview's target line names the line the jar bundles (`target-from-jar`). The
 * same drop with the small relocated fixture jar is timed in alternation with it, so the difference
 * is the fat jar's share. CPU seconds, from /proc over the same span: the renderer's DedicatedWorker
 * thread (the inspector's worker), and all Chromium threads together (on a machine shared with other
 * jobs the wall time is mostly waiting for a core; the CPU time is what the drop costs).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import type { ChromiumChoice } from '../e2e/find-chromium';
import { chromiumThreadCpu, cpuBetween, startPreview } from './figure-browser-scan';
import { median } from './measure';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const FIXTURE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical');
const TIMEOUT_MS = 120_000;

export interface JarInAppTime {
  /** median wall ms from setting the input files to the jar's line shown */
  ms: number;
  /** median CPU seconds of the worker thread over that span */
  workerCpuSeconds: number;
  /** median CPU seconds of every Chromium thread over that span (on an idle machine the wall time is at most this plus waits) */
  chromiumCpuSeconds: number;
  runs: number[];
}

/** The fixture savepoint as a zip next to the jar (made once). */
export function ensureFixtureSavepointZip(dir: string): string {
  const zip = path.join(dir, 'fixture-savepoint.zip');
  if (existsSync(zip)) return zip;
  mkdirSync(dir, { recursive: true });
  execFileSync('zip', ['-qr', zip, 'savepoint'], { cwd: FIXTURE });
  return zip;
}

/** Times each jar `runs` times, alternated (jar A, jar B, jar A, …), one fresh page (and worker) per run. */
export async function timeJobJarsInApp(
  savepointZip: string,
  jars: readonly string[],
  runs: number,
  browserChoice: ChromiumChoice,
  outDir: string,
): Promise<JarInAppTime[]> {
  const { server, port } = await startPreview(outDir);
  const browser = await chromium.launch({
    executablePath: browserChoice.executablePath,
    ...(browserChoice.env ? { env: browserChoice.env } : {}),
    args: FLAGS,
    headless: true,
  });
  const walls = jars.map(() => [] as number[]);
  const cpus = jars.map(() => [] as number[]);
  const allCpus = jars.map(() => [] as number[]);
  try {
    for (let i = 0; i < runs; i++) {
      for (const [j, jar] of jars.entries()) {
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        try {
          await page.goto(`http://localhost:${port}/`);
          await page.waitForSelector('[data-testid="app"][data-app-state="empty"]', { timeout: TIMEOUT_MS });
          const before = chromiumThreadCpu(process.pid);
          const t0 = await page.evaluate(() => performance.now());
          await page.getByTestId('file-input').setInputFiles([savepointZip, jar]);
          const t1 = await page.waitForFunction(
            () => {
              const failure = document.querySelector('[data-testid="failure"]')?.textContent;
              if (failure) return `failed: ${failure}`;
              return document.querySelector('[data-testid="target-from-jar"]') !== null ? performance.now() : false;
            },
            undefined,
            { timeout: TIMEOUT_MS, polling: 10 },
          );
          const at = await t1.jsonValue();
          if (typeof at !== 'number') throw new Error(`the app did not read ${jar}: ${String(at)}`);
          const cpu = cpuBetween(before, chromiumThreadCpu(process.pid));
          if (process.env['BENCH_DEBUG'])
            console.log(
              jar,
              at - t0,
              [...cpu]
                .filter(([, v]) => v > 0.02)
                .map(([k, v]) => `${k}=${v.toFixed(2)}`)
                .join(' '),
            );
          walls[j]!.push(at - t0);
          allCpus[j]!.push([...cpu.values()].reduce((a, b) => a + b, 0));
          cpus[j]!.push([...cpu].filter(([label]) => label.includes('DedicatedWorker')).reduce((s, [, v]) => s + v, 0));
        } finally {
          await page.close();
        }
      }
    }
  } finally {
    await browser.close().catch(() => undefined);
    server.kill();
  }
  return jars.map((_, j) => ({ ms: median(walls[j]!), workerCpuSeconds: median(cpus[j]!), chromiumCpuSeconds: median(allCpus[j]!), runs: walls[j]! }));
}
