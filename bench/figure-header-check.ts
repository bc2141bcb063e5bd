/**
 * Figure 1: the header-only check of a large savepoint — bytes read / total bytes and wall time,
 * locally (in-process inspection and `check --no-values`) and over HTTP (bytes the server sent).
 */
import path from 'node:path';
import { createSavepointRegistry } from '../src/core/compat';
import { inspectSavepoint, openSavepoint } from '../src/core/flink';
import { runCli } from '../src/cli/run-cli';
import { openNodeInput } from '../src/cli/sources';
import { serveFolder } from '../tests/helpers/serve-folder';
import { countReads } from './count-reads';
import { fmtBytes, fmtMs, timeAsync, type Figure } from './measure';
import type { BenchSavepointManifest } from './generate/generate-bench-savepoint';

export async function measureHeaderCheck(dir: string, manifest: BenchSavepointManifest, newDescriptors: string, fullReadMs: number): Promise<Figure[]> {
  const counter = { bytes: 0, reads: 0 };
  // the Protobuf serializer's readers only, as before (the bench savepoint holds no Kryo or flink-protobuf-serde state)
  const registry = createSavepointRegistry({ serializers: 'protobuf' });
  const inspect = await timeAsync(async () => inspectSavepoint(await openSavepoint(countReads(await openNodeInput(dir), counter)), registry));
  if (inspect.result.errors.length > 0) throw new Error(`header-only inspection failed: ${inspect.result.errors[0]!.message}`);
  const quiet = { stdout: () => undefined, stderr: (t: string) => void process.stderr.write(t) };
  const check = await timeAsync(() => runCli(['check', dir, '--descriptors', newDescriptors, '--no-values', '--target', '0.x', '--format', 'json'], quiet));
  // 0 compatible or 1 findings: the verdict itself is not what is measured
  if (check.result > 1) throw new Error(`check exited with ${check.result}`);
  const served = await serveFolder(path.dirname(dir));
  let remote;
  try {
    remote = await timeAsync(() =>
      runCli(['check', `${served.base}/${path.basename(dir)}/`, '--descriptors', newDescriptors, '--no-values', '--target', '0.x', '--format', 'json'], quiet),
    );
  } finally {
    await served.close();
  }
  if (remote.result > 1) throw new Error(`remote check exited with ${remote.result}`);
  const total = manifest.totalBytes;
  const pct = (b: number) => `${((100 * b) / total).toFixed(4)} %`;
  return [
    {
      id: '1a',
      name: `header-only inspection, ${fmtBytes(total)} in ${manifest.files.length + 1} files: bytes read`,
      value: `${fmtBytes(counter.bytes)} in ${counter.reads} reads`,
      ratio: `${pct(counter.bytes)} of the total bytes`,
      goal: '< 0.1 %',
      met: counter.bytes / total < 0.001,
    },
    {
      id: '1b',
      name: 'header-only inspection: wall time (in-process, warm)',
      value: fmtMs(inspect.ms),
      ratio: `${(inspect.ms / fullReadMs).toFixed(4)}× a plain read of all bytes (${fmtMs(fullReadMs)})`,
      goal: '< 1 s',
      met: inspect.ms < 1000,
    },
    {
      id: '1c',
      name: '`check --no-values` (verdict from _metadata + headers, in-process): wall time',
      value: fmtMs(check.ms),
      ratio: `${(check.ms / fullReadMs).toFixed(4)}× a plain read of all bytes`,
      goal: '< 1 s',
      met: check.ms < 1000,
    },
    {
      id: '1d',
      name: '`check --no-values` of the same savepoint over HTTP (loopback): bytes downloaded',
      value: `${fmtBytes(served.stats.bytes)} in ${served.stats.requests} requests, ${fmtMs(remote.ms)}`,
      ratio: `${pct(served.stats.bytes)} of the total bytes`,
      goal: '< 0.1 %, kilobytes',
      met: served.stats.bytes / total < 0.001,
    },
  ];
}
