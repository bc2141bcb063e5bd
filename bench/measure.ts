/** Timing and formatting helpers of the benchmarks (benchmarks are not tests: nothing asserts a time). */
import { spawnSync } from 'node:child_process';

export async function timeAsync<T>(fn: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const t0 = performance.now();
  const result = await fn();
  return { ms: performance.now() - t0, result };
}

/** One command run `runs` times as a whole process: the median wall time and the last run's stdout (exit status must be in `okStatus`). */
export function timeProcess(
  cmd: string,
  args: string[],
  runs: number,
  okStatus: readonly number[] = [0],
  env?: Readonly<Record<string, string>>,
): { ms: number; stdout: string } {
  return timeProcessesAlternated([{ cmd, args, okStatus, ...(env ? { env } : {}) }], runs)[0]!;
}

export interface ProcessSpec {
  cmd: string;
  args: string[];
  okStatus?: readonly number[];
  env?: Readonly<Record<string, string>>;
}

/**
 * Whole processes timed in alternation (a, b, c, a, b, c, …), each one's median: on a shared VM a
 * slow stretch then hits every command alike instead of whichever ran during it.
 */
export function timeProcessesAlternated(specs: readonly ProcessSpec[], runs: number): { ms: number; stdout: string; stderrs: string[] }[] {
  const times = specs.map(() => [] as number[]);
  const stdout = specs.map(() => '');
  const stderrs = specs.map(() => [] as string[]);
  for (let i = 0; i < runs; i++) {
    for (const [j, spec] of specs.entries()) {
      const t0 = performance.now();
      const r = spawnSync(spec.cmd, spec.args, {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        ...(spec.env ? { env: { ...process.env, ...spec.env } } : {}),
      });
      times[j]!.push(performance.now() - t0);
      if (r.status === null || !(spec.okStatus ?? [0]).includes(r.status))
        throw new Error(`${spec.cmd} ${spec.args.join(' ')} exited with ${r.status}: ${r.stderr}`);
      stdout[j] = r.stdout;
      stderrs[j]!.push(r.stderr);
    }
  }
  return times.map((t, j) => ({ ms: median(t), stdout: stdout[j]!, stderrs: stderrs[j]! }));
}

/** GNU time, when the machine has it: a command run under it reports its CPU seconds (user + system) on the last line of stderr. */
export const GNU_TIME = '/usr/bin/time';

/** The CPU seconds a command run as `GNU_TIME -f '%U %S' …` reported, or undefined. */
export function parseCpuSeconds(stderr: string): number | undefined {
  const last = stderr.trim().split('\n').at(-1) ?? '';
  const m = /^(\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/.exec(last);
  return m ? Number(m[1]) + Number(m[2]) : undefined;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;

export function fmtBytes(n: number): string {
  if (n >= GiB) return `${(n / GiB).toFixed(2)} GiB`;
  if (n >= MiB) return `${(n / MiB).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

export function fmtMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}

export function fmtRate(bytes: number, ms: number): string {
  return `${(bytes / MiB / (ms / 1000)).toFixed(0)} MiB/s`;
}

/** One printed figure: "value (ratio vs reference, goal …) — met/missed". */
export interface Figure {
  id: string;
  name: string;
  value: string;
  ratio: string;
  goal: string;
  met: boolean | undefined;
}

export function formatFigure(f: Figure): string {
  const verdict = f.met === undefined ? '' : f.met ? ' — goal met' : ' — goal NOT met';
  return `${f.id} ${f.name}: ${f.value} (${f.ratio}; goal ${f.goal})${verdict}`;
}
