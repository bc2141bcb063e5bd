/**
 * Figure 10c/10d: the app's Query view over the 1 GiB bench savepoint in headless Chromium (the
 * browser of figure 5). The savepoint folder is opened through the folder input, the Query view's
 * *Load states as tables* exports each state in the decoding worker as Arrow IPC, row group by row
 * group, into DuckDB-WASM (its own worker); then `SELECT count(*)` over the largest state's table runs.
 * Records the load time, the query's time (the app's own measure, from the Run click to the result),
 * every PerformanceObserver 'longtask' of the page's main thread in each phase (installed before the
 * app loads, as in figure 5, with the same self-check: a deliberate 120 ms task must be recorded), and
 * the peak PSS of all Chromium processes. Builds the app into its own folder (not figure 5's).
 */
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import type { BenchSavepointManifest } from './generate/generate-bench-savepoint';
import {
  buildBenchApp,
  chromiumThreadCpu,
  cpuBetween,
  descendantRssBytes,
  findBenchChromium,
  LONG_TASK_SCRIPT,
  measureObserverCheck,
  readLongTasks,
  startPreview,
} from './figure-browser-scan';
import { fmtBytes, fmtMs, type Figure } from './measure';

const APP_DIR = '/tmp/bench-dist-query';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const STEP_TIMEOUT_MS = 40 * 60_000;
const GOAL = 'longest main-thread task ≤ 100 ms; the count in seconds';

interface LongTask {
  start: number;
  duration: number;
}

interface AppQueryRun {
  outcome: string;
  openMs: number;
  loadMs: number;
  rows: Record<string, string>;
  queryMs: number;
  queryClickToResultMs: number;
  count: string;
  tasks: { open: LongTask[]; load: LongTask[]; query: LongTask[] };
  calibrationMs: number | undefined;
  peakPssBytes: number;
  /** CPU seconds while the tables loaded, by "<process type> <thread name>" (the page's main thread is "renderer chromium": a process's main thread bears its name) */
  loadCpuByThread: Map<string, number>;
}

const now = (page: Page) => page.evaluate(() => performance.now());

export async function runAppQuery(dir: string): Promise<AppQueryRun> {
  const choice = findBenchChromium();
  if ('skip' in choice) throw new Error(choice.skip);
  buildBenchApp(APP_DIR);
  const { server, port } = await startPreview(APP_DIR);
  const browser = await chromium.launch({ executablePath: choice.executablePath, ...(choice.env ? { env: choice.env } : {}), args: FLAGS, headless: true });
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, descendantRssBytes(process.pid));
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    let crashed = false;
    page.on('crash', () => (crashed = true));
    if (process.env['BENCH_DEBUG']) page.on('console', (m) => console.log('console:', m.text()));
    await page.addInitScript(LONG_TASK_SCRIPT);
    // BENCH_PROFILE=<file>: a CPU profile of the page's main thread while the tables load (to find a long task's cause)
    const profileFile = process.env['BENCH_PROFILE'];
    const cdp = profileFile ? await page.context().newCDPSession(page) : undefined;
    await page.goto(`http://localhost:${port}/`);
    await page.locator('[data-testid="app"][data-app-state="empty"]').waitFor({ timeout: 60_000 });
    const t0 = await now(page);
    await page.getByTestId('folder-input').setInputFiles(dir);
    await page.locator('[data-testid="app"][data-app-state="ready"]').waitFor({ timeout: STEP_TIMEOUT_MS });
    const t1 = await now(page);
    await page.getByTestId('nav-query').click();
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
      await cdp.send('Profiler.start');
    }
    // BENCH_WORKER_PROFILE=<folder>: a CPU profile of each worker (the decoding worker, DuckDB's) while the tables load
    const workerProfiles = process.env['BENCH_WORKER_PROFILE'] ? await startWorkerProfiles(page) : undefined;
    const cpuBefore = chromiumThreadCpu(process.pid);
    await page.getByTestId('load-tables').click();
    // loaded: every readable state's status says its rows (or why it failed), and the button is free again
    const statuses = page.getByTestId('query-state-status');
    const deadline = Date.now() + STEP_TIMEOUT_MS;
    for (;;) {
      if (crashed) throw new Error('the page crashed while loading the tables');
      const texts = await statuses.allTextContents();
      const enabled = await page.getByTestId('load-tables').isEnabled();
      if (enabled && texts.every((t) => /rows?\b|^not readable|^not loaded:/.test(t))) break;
      if (Date.now() > deadline) throw new Error(`tables not loaded after ${fmtMs(STEP_TIMEOUT_MS)}: ${texts.join(' | ')}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const t2 = await now(page);
    const loadCpuByThread = cpuBetween(cpuBefore, chromiumThreadCpu(process.pid));
    if (workerProfiles) await workerProfiles.stop(process.env['BENCH_WORKER_PROFILE']!);
    if (cdp && profileFile) {
      const { profile } = await cdp.send('Profiler.stop');
      const { writeFileSync } = await import('node:fs');
      writeFileSync(profileFile, JSON.stringify(profile));
    }
    const rowTexts = await page
      .getByTestId('query-state-row')
      .evaluateAll((rows) =>
        rows.map((r) => [r.querySelector('td')?.textContent ?? '', r.querySelector('[data-testid="query-state-status"]')?.textContent ?? '']),
      );
    const rows = Object.fromEntries(rowTexts) as Record<string, string>;
    // the largest state's table: the one with the most rows
    const biggest = Object.entries(rows).sort((a, b) => Number(/^(\d+)/.exec(b[1])?.[1] ?? 0) - Number(/^(\d+)/.exec(a[1])?.[1] ?? 0))[0]![0];
    await page.getByTestId('sql').fill(`SELECT count(*) AS entries, sum(value_size) AS value_bytes FROM ${biggest}`);
    const t3 = await now(page);
    await page.getByTestId('run-sql').click();
    await page.getByTestId('query-summary').waitFor({ timeout: STEP_TIMEOUT_MS });
    const t4 = await now(page);
    const summary = (await page.getByTestId('query-summary').textContent()) ?? '';
    const count = (await page.getByTestId('query-row').first().locator('span').allTextContents()).join(', ');
    const tasks = await readLongTasks(page);
    // self-check of the observer
    const calibrationMs = await measureObserverCheck(page);
    const between = (a: number, b: number) => tasks.filter((t) => t.start >= a && t.start < b);
    return {
      outcome: 'done',
      openMs: t1 - t0,
      loadMs: t2 - t1,
      rows,
      queryMs: Number(/in (\d+) ms/.exec(summary)?.[1] ?? NaN),
      queryClickToResultMs: t4 - t3,
      count: `${biggest}: ${count}`,
      tasks: { open: between(t0, t1), load: between(t1, t2), query: between(t3, t4 + 1) },
      calibrationMs,
      peakPssBytes: peak,
      loadCpuByThread,
    };
  } finally {
    sampling = false;
    await sampler;
    await browser.close().catch(() => undefined);
    server.kill();
  }
}

export async function measureAppQuery(dir: string, manifest: BenchSavepointManifest): Promise<Figure[]> {
  let run: AppQueryRun;
  try {
    run = await runAppQuery(dir);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return [
      { id: '10c', name: `the app's query over the ${fmtBytes(manifest.totalBytes)} savepoint`, value: `failed: ${why}`, ratio: '', goal: GOAL, met: false },
    ];
  }
  const longest = (ts: LongTask[]) => ts.reduce((m, t) => Math.max(m, t.duration), 0);
  const say = (ts: LongTask[]) => (ts.length === 0 ? 'none ≥ 50 ms' : `${ts.length} ≥ 50 ms, longest ${fmtMs(longest(ts))}`);
  const all = [...run.tasks.load, ...run.tasks.query];
  const calibrated = run.calibrationMs !== undefined;
  return [
    {
      id: '10c',
      name: `the app's Query view over the ${fmtBytes(manifest.totalBytes)} savepoint (${path.basename(dir)}): SELECT count(*), sum(value_size) over the largest state's table (${run.count})`,
      value: `query ${fmtMs(run.queryMs)} (Run click to result drawn: ${fmtMs(run.queryClickToResultMs)}); longest main-thread task while loading and querying: ${longest(all) === 0 ? '< 50 ms (no long task)' : fmtMs(longest(all))}`,
      ratio: `long tasks while opening: ${say(run.tasks.open)}; loading the tables: ${say(run.tasks.load)}; the query: ${say(run.tasks.query)}; observer check: a deliberate 120 ms task ${calibrated ? `was recorded as ${fmtMs(run.calibrationMs!)}` : 'was NOT recorded (figure unverified)'}`,
      goal: GOAL,
      met: calibrated && longest(all) <= 100,
    },
    {
      id: '10d',
      name: 'the same run: loading the states as tables (each state exported as Arrow IPC in the decoding worker, inserted into DuckDB-WASM row group by row group)',
      value: `open ${fmtMs(run.openMs)}, load ${fmtMs(run.loadMs)} (${(manifest.totalBytes / 1048576 / (run.loadMs / 1000)).toFixed(1)} MiB/s of state files); CPU while loading: the page's main thread ${(run.loadCpuByThread.get('renderer chromium') ?? 0).toFixed(2)} s, ${describeBusiestThreads(run.loadCpuByThread)}; peak PSS of all Chromium processes ${fmtBytes(run.peakPssBytes)}`,
      ratio: Object.entries(run.rows)
        .map(([t, s]) => `${t}: ${s}`)
        .join('; '),
      goal: '(information)',
      met: undefined,
    },
  ];
}

/** The three threads that used the most CPU, e.g. "renderer DedicatedWorker thread 41.2 s". */
function describeBusiestThreads(byThread: Map<string, number>): string {
  return [...byThread]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([t, sec]) => `${t} ${sec.toFixed(1)} s`)
    .join(', ');
}

/**
 * Profiles every dedicated worker of the page through CDP's Target domain (auto-attach without
 * flattening: commands go to a worker as Target.sendMessageToTarget, replies come back as
 * Target.receivedMessageFromTarget), so a worker's time can be read in DevTools or speedscope.
 */
async function startWorkerProfiles(page: Page): Promise<{ stop(dir: string): Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  const workers = new Map<string, string>();
  const pending = new Map<number, (result: unknown) => void>();
  let nextId = 1;
  const send = (sessionId: string, method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    });
  cdp.on('Target.receivedMessageFromTarget', (e: { message: string }) => {
    const m = JSON.parse(e.message) as { id?: number; result?: unknown };
    if (m.id !== undefined) pending.get(m.id)?.(m.result);
  });
  const started: Promise<unknown>[] = [];
  // workers there now and those started later (DuckDB's, when the view opens it): each profiled from its attach
  cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string; title: string } }) => {
    if (e.targetInfo.type !== 'worker') return;
    workers.set(e.sessionId, e.targetInfo.title);
    started.push(
      send(e.sessionId, 'Profiler.enable')
        .then(() => send(e.sessionId, 'Profiler.setSamplingInterval', { interval: 1000 }))
        .then(() => send(e.sessionId, 'Profiler.start')),
    );
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  await new Promise((r) => setTimeout(r, 500));
  return {
    async stop(dir) {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      mkdirSync(dir, { recursive: true });
      await Promise.all(started);
      for (const [id, title] of workers) {
        const result = (await send(id, 'Profiler.stop')) as { profile?: unknown } | undefined;
        if (result?.profile !== undefined)
          writeFileSync(path.join(dir, `${title.replace(/[^\w.-]+/g, '_')}-${id.slice(0, 8)}.cpuprofile`), JSON.stringify(result.profile));
      }
    },
  };
}
