/**
 * Child process of figure 10: exports state `last-event` of a bench savepoint with `export` (the CLI's
 * command in-process, one thread) in the given format to a temporary file and prints its peak RSS
 * (process.resourceUsage().maxRSS), wall and CPU time, rows and the bytes of values exported as JSON.
 * An optional third argument limits the export to that many entries (`--limit`, for A/Bs on a busy machine).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../src/cli/run-cli';

async function main(): Promise<void> {
  const [dir, format, limit] = [process.argv[2]!, process.argv[3]!, process.argv[4]];
  const out = mkdtempSync(path.join(tmpdir(), 'bench-export-'));
  try {
    const file = path.join(out, `last-event.${format}`);
    const baseline = process.resourceUsage().maxRSS;
    const cpu0 = process.cpuUsage();
    let stdout = '';
    let stderr = '';
    const t0 = performance.now();
    const code = await runCli(
      [
        'export',
        dir,
        '--operator',
        'bench-events',
        '--state',
        'last-event',
        '--format',
        format,
        '--output',
        file,
        ...(limit === undefined ? [] : ['--limit', limit]),
      ],
      {
        stdout: (t) => (stdout += t),
        stderr: (t) => (stderr += t),
      },
    );
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (code !== 0) throw new Error(stderr);
    // the last progress line names the value bytes: "…: N rows, X MiB of values"
    const progress = [...stderr.matchAll(/: (\d+) rows, ([\d.]+) MiB of values/g)].at(-1);
    const rows = Number(/: (\d+) rows? of state/.exec(stdout)?.[1] ?? 0);
    process.stdout.write(
      JSON.stringify({
        maxRssKiB: process.resourceUsage().maxRSS,
        baselineKiB: baseline,
        ms,
        cpuMs: (cpu.user + cpu.system) / 1000,
        rows,
        valueMiB: Number(progress?.[2] ?? 0),
        fileBytes: statSync(file).size,
      }),
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
void main();
