/**
 * The two Snappy decompressors give the same bytes: every Snappy table of the RocksDB-written databases
 * (fixtures/rocksdb-databases) read with snappyjs and then with `snappy-wasm`; and corrupt blocks are refused
 * (snap also refuses a block shorter than it declares, which snappyjs fills with zeros). The WebAssembly module is loaded here from node_modules as the
 * CLI loads it (install-snappy-wasm.ts), lazily, on the first Snappy block.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compress as compressSnappy } from 'snappyjs';
import { describe, expect, it, vi } from 'vitest';
import { bytesSource } from '../../src/core/io';
import { decompressSnappy, isSnappyWasmInstalled, setSnappyWasmLoader } from '../../src/core/flink/rocksdb/decompress-snappy';
import { openSstTable } from '../../src/core/flink/rocksdb/open-sst-table';

const ROOT = path.resolve(process.cwd(), 'fixtures/rocksdb-databases');
const WASM = path.resolve(process.cwd(), 'node_modules/snappy-wasm/es/snappy_bg.wasm');

/** Every entry of every Snappy table of the fixtures, as one string per table (key, sequence, type, value). */
async function readSnappyTables(): Promise<string[]> {
  const out: string[] = [];
  for (const db of readdirSync(ROOT).filter((n) => n.startsWith('snappy-'))) {
    const dir = path.join(ROOT, db, 'db');
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.sst'))) {
      const table = await openSstTable(bytesSource(name, new Uint8Array(readFileSync(path.join(dir, name)))), name);
      const lines = [`${db}/${name}`];
      for await (const e of table.entries())
        lines.push(`${Buffer.from(e.userKey).toString('hex')} ${e.sequence} ${e.type} ${Buffer.from(e.value).toString('hex')}`);
      out.push(lines.join('\n'));
    }
  }
  return out;
}

const fail = (detail: string) => new Error(`expected a Snappy compressed block, found ${detail}`);
const CORRUPT = [
  Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2]), // a length past 4 GiB
  Uint8Array.from([0x0a, 0x00, 0x61]), // 10 bytes declared, a literal of 1 byte that runs past the input
  Uint8Array.from([0x05, 0x0e, 0x61, 0x62, 0x63, 0x64, 0x06, 0x09, 0x00]), // not a valid stream: a copy offset past the output
];
const refusals = () =>
  CORRUPT.map((bytes) => {
    try {
      return `decoded ${Buffer.from(decompressSnappy(bytes, undefined, 64 * 1024 * 1024, fail)).toString('hex')}`;
    } catch (e) {
      return (e as Error).message;
    }
  });

describe('Snappy blocks: snappyjs and snappy-wasm', () => {
  it('give the same entries for every Snappy table RocksDB wrote, and the same refusals of corrupt blocks', async () => {
    expect(isSnappyWasmInstalled()).toBe(false);
    const withSnappyJs = await readSnappyTables();
    const refusedBySnappyJs = refusals();
    let loads = 0;
    setSnappyWasmLoader(() => {
      loads += 1;
      return new WebAssembly.Module(readFileSync(WASM));
    });
    expect(loads).toBe(0); // compiled on the first Snappy block, not before
    const withWasm = await readSnappyTables();
    expect(loads).toBe(1);
    expect(withSnappyJs.length).toBeGreaterThanOrEqual(3);
    expect(withWasm).toEqual(withSnappyJs);
    // snappyjs takes a block shorter than it declares (the rest left as zeros); snap refuses it, in its words
    expect(refusedBySnappyJs).toEqual([
      'expected a Snappy compressed block, found bytes Snappy cannot decompress (Invalid Snappy bitstream)',
      'decoded 61000000000000000000',
      'expected a Snappy compressed block, found bytes Snappy cannot decompress (Invalid Snappy bitstream)',
    ]);
    expect(refusals()).toEqual([
      'expected a Snappy compressed block, found bytes Snappy cannot decompress (Invalid Snappy bitstream)',
      'expected a Snappy compressed block, found bytes Snappy cannot decompress (corrupt input (header mismatch; expected 10 decompressed bytes but got 1))',
      'expected a Snappy compressed block, found bytes Snappy cannot decompress (corrupt input (expected valid offset but got offset 25185; dst position: 0))',
    ]);
    // a large block through the WebAssembly path: the bytes come back whole
    const big = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251);
    expect(decompressSnappy(compressSnappy(big), { buffer: new Uint8Array(0) }, 64 * 1024 * 1024, fail)).toEqual(big);
  });

  it('keeps snappyjs when the WebAssembly module cannot be loaded, and a later loader does not replace a running module', async () => {
    // the module of the previous test is ready in this process: a later loader leaves it
    setSnappyWasmLoader(() => {
      throw new Error('no such file');
    });
    expect(decompressSnappy(compressSnappy(Uint8Array.from([1, 2, 3])), undefined, 1024, fail)).toEqual(Uint8Array.from([1, 2, 3]));
    expect(isSnappyWasmInstalled()).toBe(true);
    // a process whose loader fails: snappyjs decompresses, and says so
    vi.resetModules();
    const fresh = await import('../../src/core/flink/rocksdb/decompress-snappy');
    fresh.setSnappyWasmLoader(() => {
      throw new Error('no such file');
    });
    expect(fresh.isSnappyWasmInstalled()).toBe(true);
    expect(fresh.decompressSnappy(compressSnappy(Uint8Array.from([4, 5, 6])), undefined, 1024, fail)).toEqual(Uint8Array.from([4, 5, 6]));
    expect(fresh.isSnappyWasmInstalled()).toBe(false);
  });
});
