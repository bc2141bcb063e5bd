/**
 * Snappy blocks of SST files, decompressed by `snappy-wasm` (Rust's `snap` compiled to WebAssembly) once the
 * platform has instantiated it (`initSnappyWasm`: the app's worker and the CLI do, before the first table is
 * read), else by snappyjs. Measured on figure 8's 13,234 blocks (docs/benchmarks.md): the WebAssembly
 * decompressor takes about 2.6× less CPU than snappyjs's; the native `snappy` binding gains nothing on 4 KiB
 * blocks (its per-call cost) and would tie the CLI to a native addon. The core stays synchronous and free of
 * any platform: which WebAssembly bytes to instantiate, and how they are fetched, is the caller's business.
 *
 * Both give the same bytes for every valid block (tests/flink-state/decompress-snappy.test.ts reads every Snappy table RocksDB
 * wrote in the fixtures with each). They differ on corrupt blocks: snappyjs does not check that a block fills
 * the length it declares (it leaves the rest of the output as it was: zeros, or a reused buffer's last block)
 * nor every read past its input, where `snap` refuses with its reason. Blocks are checksummed, so this matters
 * only for a table written without checksums; it is one more reason the WebAssembly one is the default.
 */
import { SnappyDecompressor } from 'snappyjs/snappy_decompressor.js';
import initSnappy, { decompress_raw as decompressRawWasm, initSync as initSnappySync, type InitInput, type SyncInitInput } from 'snappy-wasm';

/**
 * The one process-wide choice (the module of `snappy-wasm` keeps its instance): not installed, to be compiled
 * from `load` on the first Snappy block, or ready.
 */
let wasm: { state: 'none' } | { state: 'lazy'; load: () => SyncInitInput } | { state: 'ready' } = { state: 'none' };

/**
 * Instantiates `snappy-wasm` in the background from a URL or response of its `.wasm` (in a browser), its bytes or
 * a compiled module; without one, from the `.wasm` beside its module (what a bundler emits as an asset). Blocks
 * decompressed before it is ready are decompressed by snappyjs. Rejects when it cannot be instantiated (e.g. a
 * policy that forbids compiling WebAssembly); snappyjs then stays.
 */
export async function initSnappyWasm(input?: InitInput | Promise<InitInput>): Promise<void> {
  await initSnappy(input);
  wasm = { state: 'ready' };
}

/**
 * Registers where `snappy-wasm`'s bytes (or compiled module) come from; they are read and compiled synchronously
 * on the first Snappy block (a few milliseconds), so a process that reads none pays nothing. If `load` or the
 * compilation throws, snappyjs decompresses every block.
 */
export function setSnappyWasmLoader(load: () => SyncInitInput): void {
  if (wasm.state !== 'ready') wasm = { state: 'lazy', load };
}

/** Whether Snappy blocks are (or, from the first one on, will be) decompressed by WebAssembly rather than snappyjs. */
export function isSnappyWasmInstalled(): boolean {
  return wasm.state !== 'none';
}

function wasmReady(): boolean {
  if (wasm.state === 'lazy') {
    const { load } = wasm;
    try {
      initSnappySync(load());
      wasm = { state: 'ready' };
    } catch {
      wasm = { state: 'none' };
    }
  }
  return wasm.state === 'ready';
}

/** A buffer Snappy blocks are decompressed into (grown when a block needs more), so a read of many blocks allocates none per block. */
export interface BlockScratch {
  buffer: Uint8Array;
}

/**
 * Decompresses one raw Snappy block; with `scratch`, into it (the bytes are then valid until the next block
 * decompressed with the same scratch). A block of more than `maxBytes` is refused before it is decompressed;
 * `fail` makes the error for bytes that are not a Snappy block.
 */
export function decompressSnappy(body: Uint8Array, scratch: BlockScratch | undefined, maxBytes: number, fail: (detail: string) => Error): Uint8Array {
  const d = new SnappyDecompressor(body);
  const length = d.readUncompressedLength();
  if (length === -1) throw fail('bytes Snappy cannot decompress (Invalid Snappy bitstream)');
  if (length > maxBytes) throw fail(`bytes Snappy cannot decompress (The uncompressed length of ${length} is too big, expect at most ${maxBytes})`);
  if (wasmReady()) {
    let decoded: Uint8Array | undefined;
    try {
      decoded = decompressRawWasm(body);
    } catch (e) {
      // `snap` checks what snappyjs does not (the declared length against the bytes written, reads past the
      // input): its words, without its "snappy: " prefix. A trap of the module itself is no verdict on the
      // block: the instance is dropped and snappyjs decompresses this block and the next ones.
      if (!(e instanceof Error) || e.name === 'RuntimeError') wasm = { state: 'none' };
      else throw fail(`bytes Snappy cannot decompress (${e.message.replace(/^snappy: /, '')})`);
    }
    if (decoded !== undefined) {
      if (decoded.length !== length) throw fail(`bytes Snappy cannot decompress (${decoded.length} decompressed bytes where the block declares ${length})`);
      return decoded;
    }
  }
  let out: Uint8Array;
  if (scratch === undefined) out = new Uint8Array(length);
  else {
    if (scratch.buffer.length < length) scratch.buffer = new Uint8Array(Math.max(length, scratch.buffer.length * 2));
    out = scratch.buffer.subarray(0, length);
  }
  if (!d.uncompressToBuffer(out)) throw fail('bytes Snappy cannot decompress (Invalid Snappy bitstream)');
  return out;
}
