/**
 * `npx tsx bench/generate/main.ts <dir> <size> [parallelism]` — writes a benchmark savepoint
 * (size like 512MiB, 2GiB, 64MiB) into <dir>, reusing it when already generated with these options.
 */
import { ensureBenchSavepoint } from './generate-bench-savepoint';
import { parseByteSize } from './parse-byte-size';

const [dir, size, parallelism] = process.argv.slice(2);
if (!dir || !size) {
  console.error('usage: tsx bench/generate/main.ts <dir> <size, e.g. 2GiB> [parallelism, default 8]');
  process.exit(2);
}
const manifest = ensureBenchSavepoint({ dir, targetBytes: parseByteSize(size), parallelism: Number(parallelism ?? 8) });
console.log(`${dir}: ${manifest.files.length} state files, ${manifest.totalBytes} bytes, ${manifest.keys} keys, ${manifest.entries} entries`);
