/**
 * Figure 5: a savepoint zip scanned in the app in headless Chromium. Builds the app
 * (`vite build --outDir /tmp/bench-dist`), serves it with `vite preview` on port 4799, opens the zip
 * through the real file input (open + inspection read `_metadata` and the state headers only), then
 * opens the Unknown fields view of the largest state, which scans every value of that state in the
 * worker with the structural scan (getStateStats). Records PerformanceObserver 'longtask' entries (installed before the app loads),
 * whether the page crashed, the peak PSS of all Chromium processes, the main thread's JS heap (CDP
 * Performance.getMetrics) and the worker's (performance.memory, when Chromium exposes it there).
 * Reference: the same steps' wall times and the CLI's `stats` of the same zip.
 * The browser is the one the end-to-end suite runs in (e2e/find-chromium.ts: the system's Chromium,
 * else the one inside the npm package @sparticuz/chromium); skipped when neither can be had.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { chromium, type Page, type Worker } from '@playwright/test';
import { findChromium, type ChromiumChoice } from '../e2e/find-chromium';
import { fmtBytes, fmtMs, GNU_TIME, parseCpuSeconds, timeProcessesAlternated, type Figure } from './measure';

/** The build the figure serves (the browser figure's own build, not the repo's dist/). */
export const BENCH_APP_DIR = '/tmp/bench-dist';
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
  /** CPU seconds (user + system) of all Chromium processes while the state was scanned */
  scanCpuSeconds: number;
  /** the same by "<process type> <thread name>" */
  scanCpuByThread: Map<string, number>;
}

/** The Chromium to run the figure in, or why there is none. */
export function findBenchChromium(): ChromiumChoice | { skip: string } {
  try {
    return findChromium(process.cwd());
  } catch (e) {
    return { skip: `no Chromium: neither a system one nor @sparticuz/chromium's (${e instanceof Error ? e.message : String(e)})` };
  }
}

/** `chromium --version` of the choice (the bundled one needs its environment). */
export function chromiumVersion(choice: ChromiumChoice): string {
  return execFileSync(choice.executablePath, ['--version'], { encoding: 'utf8', ...(choice.env ? { env: choice.env } : {}) }).trim();
}

export function skippedBrowserScanFigure(reason: string): Figure {
  return { id: '5', name: `1 GiB ${NAME}`, value: 'skipped', ratio: reason, goal: GOAL, met: undefined };
}

/** Builds the app once into `outDir` (default BENCH_APP_DIR). */
export function buildBenchApp(outDir = BENCH_APP_DIR): void {
  execFileSync(path.resolve(process.cwd(), 'node_modules/.bin/vite'), ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** A port nobody listens on now (other engineers' previews and benchmarks share the machine). */
async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startPreview(outDir: string): Promise<{ server: ChildProcess; port: number }> {
  const port = await findFreePort();
  const server = spawn(
    path.resolve(process.cwd(), 'node_modules/.bin/vite'),
    ['preview', '--outDir', outDir, '--port', String(port), '--strictPort', '--bypass-lock'],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`http://localhost:${port}/`)).ok) return { server, port };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  server.kill();
  throw new Error(`vite preview did not answer on port ${port}`);
}

/** Every process (pid → parent pid), from /proc. */
function listProcessParents(): Map<number, number> {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  return parent;
}

function isBelow(parent: Map<number, number>, pid: number, root: number): boolean {
  for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
  return false;
}

const CLOCK_TICKS = 100;

/**
 * CPU seconds (user + system) so far of every thread of every Chromium process below `root`, by
 * "<pid>/<tid>", with a label "<process type> <thread name>" (e.g. "renderer DedicatedWorker thread",
 * "browser Chrome_IOThread"): where the scan's time goes.
 */
export function chromiumThreadCpu(root: number): Map<string, { label: string; seconds: number }> {
  const parent = listProcessParents();
  const out = new Map<string, { label: string; seconds: number }>();
  for (const pid of parent.keys()) {
    if (!isBelow(parent, pid, root)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/comm`, 'utf8').includes('chrom')) continue;
      const type = /--type=([a-z-]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1] ?? 'browser';
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
        // fields 14 and 15 of stat (utime, stime), counted from the state field (3)
        out.set(`${pid}/${tid}`, { label: `${type} ${name}`, seconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS });
      }
    } catch {
      // the process or thread ended meanwhile
    }
  }
  return out;
}

/** CPU seconds spent between two readings, by label (a thread that started in between counts from zero; one that ended is lost). */
export function cpuBetween(
  before: Map<string, { label: string; seconds: number }>,
  after: Map<string, { label: string; seconds: number }>,
): Map<string, number> {
  const byLabel = new Map<string, number>();
  for (const [k, { label, seconds }] of after) byLabel.set(label, (byLabel.get(label) ?? 0) + seconds - (before.get(k)?.seconds ?? 0));
  return byLabel;
}

/**
 * Sum of the proportional set size (PSS: shared pages split between their processes, so not counted
 * twice) of every Chromium process below `root` (browser, renderer, GPU and utility processes).
 */
export function descendantRssBytes(root: number): number {
  const parent = listProcessParents();
  let total = 0;
  for (const pid of parent.keys()) {
    if (!isBelow(parent, pid, root)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/comm`, 'utf8').includes('chrom')) continue;
      const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (pss) total += Number(pss[1]) * 1024;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/** The long tasks LONG_TASK_SCRIPT has recorded so far in the page. */
export function readLongTasks(page: Page): Promise<{ start: number; duration: number }[]> {
  return page.evaluate(() => (window as unknown as { __benchLongTasks: { start: number; duration: number }[] }).__benchLongTasks);
}

/**
 * The observer's self-check: a deliberate 120 ms task from a page timer (a task of the page's own
 * event loop, like the app's work) must be recorded; its recorded duration, or undefined when it was not.
 */
export async function measureObserverCheck(page: Page): Promise<number | undefined> {
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
  return (await readLongTasks(page).catch(() => [])).find((t) => t.start >= calibrationStart - 1)?.duration;
}

export const LONG_TASK_SCRIPT = `(() => {
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

/** Opens `zip` in the app (built into `outDir`) and scans `state` of `operatorId`; one run. */
export async function runBrowserScan(
  zip: string,
  operatorId: string,
  state: string,
  browserChoice: ChromiumChoice,
  outDir = BENCH_APP_DIR,
): Promise<BrowserScanRun> {
  const { server, port } = await startPreview(outDir);
  // BENCH_CHROMIUM_ARGS: more flags as a JSON array, for profiling (e.g. ["--js-flags=--prof --logfile=/tmp/v8-%p.log"])
  const extra = JSON.parse(process.env['BENCH_CHROMIUM_ARGS'] ?? '[]') as string[];
  const browser = await chromium.launch({
    executablePath: browserChoice.executablePath,
    ...(browserChoice.env ? { env: browserChoice.env } : {}),
    args: [...FLAGS, ...extra],
    headless: true,
  });
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
    await page.addInitScript(LONG_TASK_SCRIPT);
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
            const used = await Promise.race([
              w.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize),
              new Promise<undefined>((r) => setTimeout(() => r(undefined), 1000)),
            ]);
            if (typeof used === 'number') peakWorker = Math.max(peakWorker ?? 0, used);
          }
        } catch {
          // page or worker gone (crash or close)
        }
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    await page.goto(`http://localhost:${port}/`);
    const waitFor = async (
      done: (s: Awaited<ReturnType<typeof readState>>) => boolean,
    ): Promise<{ outcome: BrowserScanRun['outcome']; detail: string; at: number }> => {
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
    let scanCpuSeconds = NaN;
    let scanCpuByThread = new Map<string, number>();
    if (opened.outcome === 'done') {
      const cpuBefore = chromiumThreadCpu(process.pid);
      scanStart = (await readState(page)).now;
      await page.evaluate((h) => (window.location.hash = h), `#/unknown?op=${operatorId}&state=${encodeURIComponent(state)}`);
      scanned = await waitFor((s) => s.stats && s.app === 'ready');
      scanCpuByThread = cpuBetween(cpuBefore, chromiumThreadCpu(process.pid));
      scanCpuSeconds = [...scanCpuByThread.values()].reduce((a, b) => a + b, 0);
    }
    sampling = false;
    await sampler;
    const tasks = crashed ? [] : await readLongTasks(page).catch(() => []);
    // self-check: a deliberate 120 ms task after the scan must show up as a long task
    const calibrationTaskMs = crashed ? undefined : await measureObserverCheck(page);
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
      scanCpuSeconds,
      scanCpuByThread,
    };
  } finally {
    await browser.close().catch(() => undefined);
    server.kill();
  }
}

export function formatBrowserScanFigures(run: BrowserScanRun, savepointBytes: number, values: number, state: string, cli: CliStatsTime): Figure[] {
  const longest = run.longTasks.reduce((m, t) => Math.max(m, t.duration), 0);
  const byPhase = (p: 'open' | 'scan') => run.longTasks.filter((t) => t.phase === p);
  const describe = (p: 'open' | 'scan') => {
    const ts = byPhase(p);
    return ts.length === 0
      ? 'none ≥ 50 ms'
      : `${ts.length} ≥ 50 ms, longest ${fmtMs(Math.max(...ts.map((t) => t.duration)))}, ${fmtMs(ts.reduce((s, t) => s + t.duration, 0))} in all`;
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
      value: `open ${fmtMs(run.openMs)}, scan ${fmtMs(run.scanMs)} (${run.scanCpuSeconds.toFixed(2)} CPU s in Chromium's processes); peak PSS of all Chromium processes ${fmtBytes(run.peakChromiumRssBytes)}, main-thread JS heap ${fmtBytes(run.peakMainHeapBytes)}, worker JS heap ${run.peakWorkerHeapBytes === undefined ? 'not exposed' : fmtBytes(run.peakWorkerHeapBytes)}`,
      ratio: `CLI \`stats\` of the same zip (whole process, all states, 2 workers): ${fmtMs(cli.ms)}${cli.cpuSeconds === undefined ? '' : ` (${cli.cpuSeconds.toFixed(2)} CPU s)`}; the app's open + scan takes ${(total / cli.ms).toFixed(1)}× that`,
      goal: '(information)',
      met: undefined,
    },
  ];
}

export interface CliStatsTime {
  ms: number;
  /** user + system CPU seconds (GNU time), when the machine has it */
  cpuSeconds: number | undefined;
}

/** Whole-process CLI `stats` of the zip, the prebuilt bundle (built by the caller: buildCliBundle): wall time, and CPU time under GNU time. */
export function timeCliStats(zip: string): CliStatsTime {
  const args = [path.resolve(process.cwd(), 'bin/savepoint-inspector.mjs'), 'stats', zip];
  const timed = existsSync(GNU_TIME);
  const [r] = timeProcessesAlternated([timed ? { cmd: GNU_TIME, args: ['-f', '%U %S', process.execPath, ...args] } : { cmd: process.execPath, args }], 1);
  return { ms: r!.ms, cpuSeconds: timed ? parseCpuSeconds(r!.stderrs[0] ?? '') : undefined };
}
