/**
 * Child process of figure 3: scans every state of a savepoint (single thread, structural scan) and
 * prints its peak RSS (process.resourceUsage().maxRSS), time and bytes read as JSON.
 */
import { openSavepoint } from '../src/core/flink';
import { openNodeInput } from '../src/cli/sources';
import { scanSavepointUnits } from '../src/cli/scan/scan-savepoint-units';

async function main(): Promise<void> {
  const dir = process.argv[2]!;
  const baseline = process.resourceUsage().maxRSS;
  const files = await openNodeInput(dir);
  const opened = await openSavepoint(files);
  const units = opened.metadata.operators.flatMap((o) => o.subtasks.map((s) => ({ operatorId: o.id, subtask: s.index })));
  const t0 = performance.now();
  const r = await scanSavepointUnits(files, units);
  const ms = performance.now() - t0;
  if (r.errors.length > 0) throw new Error(r.errors[0]!.message);
  process.stdout.write(JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS, baselineKiB: baseline, ms, bytesRead: r.bytesRead, values: r.states.reduce((s, x) => s + x.entries, 0) }));
}
void main();
