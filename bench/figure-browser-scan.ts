/**
 * Figure 5: a savepoint zip scanned in the app in headless Chromium. Builds the app
 * (`vite build --outDir /tmp/bench-dist`), serves it with `vite preview` on port 4799, opens the zip
 * through the real file input (open + inspection read `_metadata` and the state headers only), then
 * opens the Unknown fields view of the largest state, which scans every value of that state in the
 * worker with the structural scan (getStateStats). Records PerformanceObserver 'longtask' entries (installed before the app loads),
 * whether the page crashed, the peak PSS of all Chromium processes, the main thread's JS heap (CDP
 * Performance.getMetrics) and the worker's (performance.memory, when Chromium exposes it there).
 * Reference: the same steps' wall times and the CLI's `stats` of the same zip.
 * Skipped when /usr/bin/chromium is absent.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page, type Worker } from '@playwright/test';
import { fmtBytes, fmtMs, timeProcess, type Figure } from './measure';
import { buildCliBundle } from './build-cli-bundle';

export const CHROMIUM = '/usr/bin/chromium';
const PORT = 4799;
const OUT_DIR = '/tmp/bench-dist';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const STEP_TIMEOUT_MS = 30 * 60_000;
const NAME = 'zip scanned in the app (headless Chromium): longest main-thread task, no OOM';
const GOAL = '< 100 ms, no crash';

export interface BrowserScanRun {
  zipBytes: number;
  openMs: number;
  scanMs: number;
  outcome: 'done' | 'crashed' | 'failed' | 'timeout';
  detail: string;
  longTasks: { phase: 'open' | 'scan'; start: number; duration: number }[];
  peakChromiumRssBytes: number;
  peakMainHeapBytes: number;
  peakWorkerHeapBytes: number | undefined;
  /** the observer's self-check: how long it recorded a deliberate 120 ms main-thread task (undefined: not seen) */
  calibrationTaskMs: number | undefined;
}

export function skippedBrowserScanFigure(reason: string): Figure {
  return { id: '5', name: `1 GiB ${NAME}`, value: 'skipped', ratio: reason, goal: GOAL, met: undefined };
}

/** Builds the app once into OUT_DIR (the browser figure's own build, not the repo's dist/). */
export function buildBenchApp(): void {
  execFileSync(path.resolve(process.cwd(), 'node_modules/.bin/vite'), ['build', '--outDir', OUT_DIR, '--emptyOutDir', '--logLevel', 'warn'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

async function startPreview(): Promise<ChildProcess> {
  const server = spawn(path.resolve(process.cwd(), 'node_modules/.bin/vite'), ['preview', '--outDir', OUT_DIR, '--port', String(PORT), '--strictPort', '--bypass-lock'], { stdio: 'ignore' });
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`http://localhost:${PORT}/`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  server.kill();
  throw new Error(`vite preview did not answer on port ${PORT}`);
}

/**
 * Sum of the proportional set size (PSS: shared pages split between their processes, so not counted
 * twice) of every Chromium process below `root` (browser, renderer, GPU and utility processes).
 */
function descendantRssBytes(root: number): number {
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(d), Number(fields[1]));
      if (!readFileSync(`/proc/${d}/comm`, 'utf8').includes('chrom')) continue;
      const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${d}/smaps_rollup`, 'utf8'));
      if (pss) rss.set(Number(d), Number(pss[1]) * 1024);
    } catch {
      // the process ended meanwhile
    }
  }
  let total = 0;
  for (const [pid, bytes] of rss) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        total += bytes;
        break;
      }
    }
  }
  return total;
}

const INIT_SCRIPT = `(() => {
  window.__benchLongTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__benchLongTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
})();`;

async function readState(page: Page): Promise<{ app: string | null; stats: boolean; failure: string | null; now: number }> {
  return page.evaluate(() => ({
    app: document.querySelector('[data-testid="app"]')?.getAttribute('data-app-state') ?? null,
    // the Unknown fields view's heading replaces 'Scanning values…' once the state's statistics arrived
    stats: document.querySelector('[data-testid="unknown-view"] h1') !== null,
    failure: document.querySelector('[data-testid="failure"]')?.textContent ?? null,
    now: performance.now(),
  }));
}

/** Opens `zip` in the app and scans `state` of `operatorId`; one run. */
export async function runBrowserScan(zip: string, operatorId: string, state: string): Promise<BrowserScanRun> {
  const server = await startPreview();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  let crashed = false;
  let peakRss = 0;
  let peakMain = 0;
  let peakWorker: number | undefined;
  const workers: Worker[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('crash', () => (crashed = true));
    if (process.env['BENCH_DEBUG']) {
      page.on('console', (m) => console.log('console:', m.text()));
      page.on('pageerror', (e) => console.log('pageerror:', e.message));
    }
    page.on('worker', (w) => workers.push(w));
    await page.addInitScript(INIT_SCRIPT);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    let sampling = true;
    const sampler = (async () => {
      while (sampling && !crashed) {
        peakRss = Math.max(peakRss, descendantRssBytes(process.pid));
        try {
          const m = await cdp.send('Performance.getMetrics');
          peakMain = Math.max(peakMain, m.metrics.find((x) => x.name === 'JSHeapUsedSize')?.value ?? 0);
          for (const w of workers) {
            const used = await Promise.race([w.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize), new Promise<undefined>((r) => setTimeout(() => r(undefined), 1000))]);
            if (typeof used === 'number') peakWorker = Math.max(peakWorker ?? 0, used);
          }
        } catch {
          // page or worker gone (crash or close)
        }
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    await page.goto(`http://localhost:${PORT}/`);
    const waitFor = async (done: (s: Awaited<ReturnType<typeof readState>>) => boolean): Promise<{ outcome: BrowserScanRun['outcome']; detail: string; at: number }> => {
      const t0 = Date.now();
      while (Date.now() - t0 < STEP_TIMEOUT_MS) {
        if (crashed) return { outcome: 'crashed', detail: 'the page crashed', at: 0 };
        let s;
        try {
          s = await readState(page);
        } catch (e) {
          return { outcome: crashed ? 'crashed' : 'failed', detail: String(e), at: 0 };
        }
        if (s.app === 'failed' || s.failure) return { outcome: 'failed', detail: s.failure ?? 'app state failed', at: s.now };
        if (done(s)) return { outcome: 'done', detail: '', at: s.now };
        await new Promise((r) => setTimeout(r, 200));
      }
      return { outcome: 'timeout', detail: `no result after ${fmtMs(STEP_TIMEOUT_MS)}`, at: 0 };
    };
    await waitFor((s) => s.app === 'empty');
    const openStart = (await readState(page)).now;
    await page.getByTestId('file-input').setInputFiles(zip);
    const opened = await waitFor((s) => s.app === 'ready');
    let scanStart = opened.at;
    let scanned = opened;
    if (opened.outcome === 'done') {
      scanStart = (await readState(page)).now;
      await page.evaluate((h) => (window.location.hash = h), `#/unknown?op=${operatorId}&state=${encodeURIComponent(state)}`);
      scanned = await waitFor((s) => s.stats && s.app === 'ready');
    }
    sampling = false;
    await sampler;
    const readTasks = () => page.evaluate(() => (window as unknown as { __benchLongTasks: { start: number; duration: number }[] }).__benchLongTasks).catch(() => []);
    const tasks = crashed ? [] : await readTasks();
    // self-check: a deliberate 120 ms task after the scan must show up as a long task
    let calibrationTaskMs: number | undefined;
    if (!crashed) {
      // from a page timer (a task of the page's own event loop, like the app's work)
      const calibrationStart = await page.evaluate(() => {
        setTimeout(() => {
          const t = performance.now();
          while (performance.now() - t < 120) {
            // busy on purpose
          }
        }, 0);
        return performance.now();
      });
      await new Promise((r) => setTimeout(r, 500));
      calibrationTaskMs = (await readTasks()).find((t) => t.start >= calibrationStart - 1)?.duration;
    }
    return {
      zipBytes: 0,
      openMs: opened.outcome === 'done' ? opened.at - openStart : NaN,
      scanMs: scanned.outcome === 'done' && opened.outcome === 'done' ? scanned.at - scanStart : NaN,
      outcome: opened.outcome !== 'done' ? opened.outcome : scanned.outcome,
      detail: opened.outcome !== 'done' ? `opening: ${opened.detail}` : scanned.detail,
      longTasks: tasks.filter((t) => t.start >= openStart).map((t) => ({ phase: t.start < scanStart ? 'open' : 'scan', ...t })),
      peakChromiumRssBytes: peakRss,
      peakMainHeapBytes: peakMain,
      peakWorkerHeapBytes: peakWorker,
      calibrationTaskMs,
    };
  } finally {
    await browser.close().catch(() => undefined);
    server.kill();
  }
}

export function formatBrowserScanFigures(run: BrowserScanRun, savepointBytes: number, values: number, state: string, cliStatsMs: number): Figure[] {
  const longest = run.longTasks.reduce((m, t) => Math.max(m, t.duration), 0);
  const byPhase = (p: 'open' | 'scan') => run.longTasks.filter((t) => t.phase === p);
  const describe = (p: 'open' | 'scan') => {
    const ts = byPhase(p);
    return ts.length === 0 ? 'none ≥ 50 ms' : `${ts.length} ≥ 50 ms, longest ${fmtMs(Math.max(...ts.map((t) => t.duration)))}, ${fmtMs(ts.reduce((s, t) => s + t.duration, 0))} in all`;
  };
  const total = run.openMs + run.scanMs;
  const calibrated = run.calibrationTaskMs !== undefined;
  const done = run.outcome === 'done';
  return [
    {
      id: '5a',
      name: `${fmtBytes(savepointBytes)} savepoint as a STORED ${NAME}`,
      value: done ? `${longest === 0 ? '< 50 ms (no long task)' : fmtMs(longest)}; ${run.outcome}` : `${run.outcome}: ${run.detail}`,
      ratio: `${done ? `${((100 * longest) / total).toFixed(2)} % of the open + scan wall time (${fmtMs(total)}); long tasks while opening: ${describe('open')}; while scanning: ${describe('scan')}` : `longest task before it stopped: ${fmtMs(longest)}`}; observer check: a deliberate 120 ms task ${calibrated ? `was recorded as ${fmtMs(run.calibrationTaskMs!)}` : 'was NOT recorded (figure unverified)'}`,
      goal: GOAL,
      met: done && calibrated && longest < 100,
    },
    {
      id: '5b',
      name: `the same run: wall time and memory (open = _metadata + state headers; scan = Unknown fields view of '${state}', ${values} values, structural scan)`,
      value: `open ${fmtMs(run.openMs)}, scan ${fmtMs(run.scanMs)}; peak PSS of all Chromium processes ${fmtBytes(run.peakChromiumRssBytes)}, main-thread JS heap ${fmtBytes(run.peakMainHeapBytes)}, worker JS heap ${run.peakWorkerHeapBytes === undefined ? 'not exposed' : fmtBytes(run.peakWorkerHeapBytes)}`,
      ratio: `CLI \`stats\` of the same zip (whole process, all states): ${fmtMs(cliStatsMs)}; the app's open + scan takes ${(total / cliStatsMs).toFixed(1)}× that`,
      goal: '(information)',
      met: undefined,
    },
  ];
}

/** Whole-process CLI `stats` of the zip (prebuilt bundle when fresh). */
export function timeCliStats(zip: string): number {
  buildCliBundle();
  return timeProcess(process.execPath, [path.resolve(process.cwd(), 'bin/savepoint-inspector.mjs'), 'stats', zip], 1).ms;
}

export const HAVE_CHROMIUM = existsSync(CHROMIUM);
