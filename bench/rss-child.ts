/**
 * Child process of figure 3: scans every state of a savepoint as `stats --workers 1` does (one thread,
 * structural scan) and prints its peak RSS (process.resourceUsage().maxRSS), time and bytes read as JSON.
 */
import { installSnappyWasm } from '../src/cli/install-snappy-wasm';
import { runParallelScan } from '../src/cli/scan';

// as the CLI runs (run-main.ts): RocksDB's Snappy blocks by snappy-wasm
installSnappyWasm();

async function main(): Promise<void> {
  const dir = process.argv[2]!;
  const baseline = process.resourceUsage().maxRSS;
  const t0 = performance.now();
  const r = await runParallelScan(dir, { workers: 1 });
  const ms = performance.now() - t0;
  if (r.errors.length > 0) throw new Error(r.errors[0]!.message);
  process.stdout.write(
    JSON.stringify({
      maxRssKiB: process.resourceUsage().maxRSS,
      baselineKiB: baseline,
      ms,
      bytesRead: r.bytesRead,
      values: r.states.reduce((s, x) => s + x.entries, 0),
    }),
  );
}
void main();
