/**
 * Points the core's SST reader (core/flink/rocksdb/decompress-snappy.ts) at `snappy-wasm`'s `.wasm`: the copy
 * `npm run build:cli` puts beside the prebuilt bundle (dist-cli/snappy_bg.wasm; the npm package has no
 * node_modules), else the package's own file when the CLI runs from source. The file is read and compiled on
 * the first Snappy block only. Without either file, snappyjs decompresses the blocks: the same bytes, about
 * 2.6× more CPU (docs/benchmarks.md, figure 8).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setSnappyWasmLoader } from '../core/flink';

export const SNAPPY_WASM_FILE = 'snappy_bg.wasm';

/** Where the `.wasm` is: beside `moduleUrl` (the bundle), else in node_modules; undefined when neither has it. */
export function findSnappyWasm(moduleUrl: string = import.meta.url): string | undefined {
  const beside = fileURLToPath(new URL(`./${SNAPPY_WASM_FILE}`, moduleUrl));
  if (existsSync(beside)) return beside;
  try {
    // the package's "require" entry is cjs/snappy.js; the web build's module (es/) is the one the core imports
    const entry = createRequire(moduleUrl).resolve('snappy-wasm');
    const file = path.join(path.dirname(entry), '..', 'es', SNAPPY_WASM_FILE);
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

/** Registers the `.wasm` found (compiled synchronously on the first Snappy block); false when there is none. */
export function installSnappyWasm(): boolean {
  const file = findSnappyWasm();
  if (file === undefined) return false;
  setSnappyWasmLoader(() => new WebAssembly.Module(readFileSync(file)));
  return true;
}
