/**
 * Runs CLI commands (runCli, in-process) on a worker thread, one at a time, each under a wall-clock
 * bound: a command that does not answer in time is a hang, and its thread is terminated (which
 * also ends a synchronous loop) and replaced. Peak RSS growth of the process is sampled during each
 * command. `judgeBadInputRun` says whether a run is what bad input must give: exit 2, a message on
 * stderr that names where (a file with a byte offset, a URL, or a path), no stack trace.
 */
import { Worker } from 'node:worker_threads';

export interface CliRun {
  argv: readonly string[];
  /** undefined when the command did not finish in time (or its thread died) */
  code: number | undefined;
  stdout: string;
  stderr: string;
  /** full lengths of the streams (the texts above are capped) */
  stdoutLength: number;
  ms: number;
  /** the most the process's resident set grew above its size when the command started */
  rssGrowth: number;
  hung: boolean;
  /** the worker thread failed (an uncaught exception or an unhandled rejection in the command) */
  crashed?: string;
}

interface Reply {
  id: number;
  code: number;
  stdout: { text: string; length: number };
  stderr: { text: string; length: number };
}

export class CliCaseRunner {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private nextId = 0;

  constructor(private readonly env: Record<string, string> = {}) {}

  private start(): Promise<void> {
    const worker = new Worker(new URL('./cli-case-worker.mjs', import.meta.url), {
      env: { ...process.env, ...this.env },
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: 512 },
      stdout: true,
      stderr: true,
    });
    // the CLI writes through runCli's io; anything the thread prints besides is drained, not shown
    worker.stdout.resume();
    worker.stderr.resume();
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
    return this.ready;
  }

  async run(argv: readonly string[], timeoutMs: number): Promise<CliRun> {
    if (!this.worker) await this.start();
    await this.ready;
    const worker = this.worker!;
    const id = this.nextId++;
    const rssStart = process.memoryUsage().rss;
    let rssPeak = rssStart;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
    const started = performance.now();
    type Outcome = { kind: 'reply'; reply: Reply } | { kind: 'timeout' } | { kind: 'crash'; why: string };
    let timer: NodeJS.Timeout | undefined;
    let onMessage: ((m: Reply) => void) | undefined;
    let onError: ((e: Error) => void) | undefined;
    let onExit: ((code: number) => void) | undefined;
    const outcome = await new Promise<Outcome>((resolve) => {
      onMessage = (m) => m.id === id && resolve({ kind: 'reply', reply: m });
      onError = (e) => resolve({ kind: 'crash', why: e.stack ?? e.message });
      onExit = (code) => resolve({ kind: 'crash', why: `worker exited with ${code}` });
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      timer = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs);
      worker.postMessage({ id, argv: [...argv] });
    });
    clearTimeout(timer);
    clearInterval(sampler);
    worker.off('message', onMessage!);
    worker.off('error', onError!);
    worker.off('exit', onExit!);
    const ms = performance.now() - started;
    const rssGrowth = Math.max(rssPeak, process.memoryUsage().rss) - rssStart;
    if (outcome.kind !== 'reply') {
      await this.close();
      return {
        argv,
        code: undefined,
        stdout: '',
        stderr: '',
        stdoutLength: 0,
        ms,
        rssGrowth,
        hung: outcome.kind === 'timeout',
        ...(outcome.kind === 'crash' ? { crashed: outcome.why } : {}),
      };
    }
    const { reply } = outcome;
    return { argv, code: reply.code, stdout: reply.stdout.text, stderr: reply.stderr.text, stdoutLength: reply.stdout.length, ms, rssGrowth, hung: false };
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    if (worker) await worker.terminate();
  }
}

/** Above this growth of the resident set during one command, a case fails (the suite's heap cap is 512 MiB). */
export const CASE_RSS_LIMIT = 256 * 1024 * 1024;

/** Why a run is not what bad input must give, or undefined when it is. */
export function judgeBadInputRun(run: CliRun, where: RegExp = LOCATED, rssLimit = CASE_RSS_LIMIT): string | undefined {
  if (run.hung) return `no answer within the case's bound (${Math.round(run.ms)} ms)`;
  if (run.crashed !== undefined) return `the command's thread died: ${run.crashed.split('\n')[0]}`;
  if (run.rssGrowth > rssLimit) return `memory grew by ${Math.round(run.rssGrowth / 1048576)} MiB`;
  if (run.code !== 2) return `exit ${run.code} instead of 2: ${firstLines(run.stderr || run.stdout)}`;
  if (/internal error|\n\s+at .+:\d+:\d+\)?\n/.test(run.stderr)) return `a stack trace or internal error on stderr: ${firstLines(run.stderr)}`;
  if (!where.test(run.stderr)) return `stderr does not say where: ${firstLines(run.stderr)}`;
  return undefined;
}

/**
 * For input that may be partly readable: no hang, no crash, no internal error or stack trace;
 * exit 2 only with a located message, and every error a report lists (inspect, stats) located.
 */
export function judgeNoInternalError(run: CliRun, rssLimit = CASE_RSS_LIMIT): string | undefined {
  if (run.hung) return `no answer within the case's bound (${Math.round(run.ms)} ms)`;
  if (run.crashed !== undefined) return `the command's thread died: ${run.crashed.split('\n')[0]}`;
  if (run.rssGrowth > rssLimit) return `memory grew by ${Math.round(run.rssGrowth / 1048576)} MiB`;
  if (run.code === undefined || run.code > 2 || run.code < 0) return `exit ${run.code}: ${firstLines(run.stderr || run.stdout)}`;
  if (/internal error|\n\s+at .+:\d+:\d+\)?\n/.test(run.stderr)) return `a stack trace or internal error on stderr: ${firstLines(run.stderr)}`;
  if (run.code === 2 && !LOCATED.test(run.stderr)) return `stderr does not say where: ${firstLines(run.stderr)}`;
  const unlocated = run.stdout.split('\n').find((l) => /^\s+error: /.test(l) && !/— at /.test(l));
  if (unlocated !== undefined) return `a listed error does not say where: ${unlocated.trim().slice(0, 300)}`;
  return undefined;
}

/** A located message: a file with its byte offset, or a URL. */
export const LOCATED = /— at [^\n]*offset \d+|https?:\/\/127\.0\.0\.1:\d+/;

function firstLines(text: string): string {
  return text.split('\n').slice(0, 3).join(' ⏎ ').slice(0, 400);
}
