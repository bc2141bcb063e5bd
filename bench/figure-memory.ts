/** Figure 3: peak RSS of a full structural scan in a child process, at 0.5 GiB and 2 GiB. */
import path from 'node:path';
import { fmtBytes, GiB, MiB, timeProcess, type Figure } from './measure';

interface RssRun {
  maxRssKiB: number;
  baselineKiB: number;
  ms: number;
  bytesRead: number;
  values: number;
}

function runChild(dir: string): RssRun {
  const tsx = path.resolve(process.cwd(), 'node_modules/.bin/tsx');
  const { stdout } = timeProcess(tsx, [path.resolve(process.cwd(), 'bench/rss-child.ts'), dir], 1);
  return JSON.parse(stdout) as RssRun;
}

export function measureMemory(small: string, large: string): Figure[] {
  const a = runChild(small);
  const b = runChild(large);
  const rss = (k: number) => fmtBytes(k * 1024);
  return [
    {
      id: '3a',
      name: `peak RSS scanning ${fmtBytes(b.bytesRead)} (${b.values} values)`,
      value: rss(b.maxRssKiB),
      ratio: `${(((b.maxRssKiB * 1024) / b.bytesRead) * 100).toFixed(1)} % of the bytes scanned; process start-up alone ${rss(b.baselineKiB)}`,
      goal: '< 256 MiB',
      met: b.maxRssKiB * 1024 < 256 * MiB,
    },
    {
      id: '3b',
      name: `peak RSS from ${fmtBytes(a.bytesRead)} to ${fmtBytes(b.bytesRead)}`,
      value: `${rss(a.maxRssKiB)} → ${rss(b.maxRssKiB)}`,
      ratio: `${(b.maxRssKiB / a.maxRssKiB).toFixed(2)}× for ${(b.bytesRead / a.bytesRead).toFixed(1)}× the data`,
      goal: 'flat',
      met: b.maxRssKiB / a.maxRssKiB < 1.25 && b.bytesRead >= 1.9 * GiB,
    },
  ];
}
