/**
 * Canonical keyed streams are read in slices: consecutive key-group blocks joined up to
 * MAX_KEYED_SLICE_BYTES, the next slice read ahead while the current one is decoded (within
 * KEYED_READ_AHEAD_BYTES). Same entries as one read per block, fewer reads, every byte read once,
 * and a consumer that stops early leaves no unhandled rejection behind.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordSavepointReads } from '../helpers/record-savepoint-reads';
import { DecodeError, isDecodeError, sliceSource, type ByteSource } from '../../src/core/io';
import { createSnapshotRegistry, openSavepoint, type StateEntry } from '../../src/core/flink';
import { KeyedReadBuffers } from '../../src/core/flink/keyed/keyed-read-buffers';
import { countStateEntries } from '../../src/core/flink/scan/count-state-entries';
import {
  FIRST_KEYED_SLICE_BYTES,
  groupKeyGroupSlices,
  KEYED_BLOCK_WINDOW_BYTES,
  KEYED_READ_AHEAD_BYTES,
  KEYED_SCAN_WINDOW_BYTES,
  listKeyGroupBlocks,
  MAX_KEYED_SLICE_BYTES,
  readCanonicalKeyedEntryRuns,
} from '../../src/core/flink/keyed/read-canonical-keyed-entries';
import { readCanonicalKeyedEntries } from '../helpers/read-keyed-entries';
import { readSubtaskKeyedStream } from '../../src/core/flink/headers/read-subtask-state-headers';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { openNodeInput } from '../../src/cli/sources';
import { useGeneratedBenchSavepoint } from '../helpers/use-generated-bench-savepoint';

describe('groupKeyGroupSlices', () => {
  it('joins contiguous blocks up to a limit that doubles per slice, and reads a larger block alone', () => {
    const blocks = [
      { keyGroup: 3, offset: 100, end: 400 },
      { keyGroup: 4, offset: 400, end: 900 },
      { keyGroup: 5, offset: 900, end: 2000 },
      { keyGroup: 6, offset: 2000, end: 2100 },
      { keyGroup: 8, offset: 2500, end: 2600 },
    ];
    expect(groupKeyGroupSlices(blocks, 1000, 1000).map((s) => [s.offset, s.end, s.blocks.map((b) => b.keyGroup)])).toEqual([
      [100, 900, [3, 4]],
      [900, 2000, [5]],
      [2000, 2100, [6]],
      [2500, 2600, [8]],
    ]);
    // limits 300, 600, 1000: the first slice holds one block only
    expect(groupKeyGroupSlices(blocks, 1000, 300).map((s) => s.blocks.map((b) => b.keyGroup))).toEqual([[3], [4], [5], [6], [8]]);
    const even = Array.from({ length: 12 }, (_, i) => ({ keyGroup: i, offset: i * 100, end: i * 100 + 100 }));
    expect(groupKeyGroupSlices(even, 400, 100).map((s) => s.blocks.length)).toEqual([1, 2, 4, 4, 1]);
    expect(groupKeyGroupSlices([], 1000)).toEqual([]);
    expect(MAX_KEYED_SLICE_BYTES).toBeLessThanOrEqual(KEYED_READ_AHEAD_BYTES);
  });
});

/** The keyed stream of the first subtask of the first operator with subtasks, with the Protobuf readers registered. */
async function openFirstKeyedStream(dir: string) {
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  const opened = await openSavepoint(await openNodeInput(dir));
  const op = opened.metadata.operators.find((o) => o.subtasks.length > 0)!;
  return readSubtaskKeyedStream(opened, op, op.subtasks[0]!, registry);
}

describe('coalesced keyed reads on a generated savepoint (128 key groups of ~24 KiB in one state file)', () => {
  const sp = useGeneratedBenchSavepoint('perf-slices-', { targetBytes: 3 * 1024 * 1024, parallelism: 1 });

  it('reads each state byte once in slices of at most MAX_KEYED_SLICE_BYTES, far fewer than one per block, with every entry', async () => {
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    const reads: [string, number, number][] = [];
    const files = recordSavepointReads(await openNodeInput(sp.dir), reads);
    const result = await countStateEntries(await openSavepoint(files), registry);
    expect(result.errors).toEqual([]);
    expect(result.counts.reduce((s, c) => s + c.entries, 0)).toBe(sp.manifest.entries);
    const opened = await openSavepoint(await openNodeInput(sp.dir));
    const op = opened.metadata.operators.find((o) => o.subtasks.length > 0)!;
    const keyed = await readSubtaskKeyedStream(opened, op, op.subtasks[0]!, registry);
    const blocks = listKeyGroupBlocks(keyed!.input!);
    expect(blocks.length).toBe(128);
    // header reads (below the first block) are not slices; the rest cover the blocks exactly once, in order
    const sliceReads = reads.filter(([, offset]) => offset >= blocks[0]!.offset);
    expect(sliceReads.length).toBe(groupKeyGroupSlices(blocks).length);
    expect(sliceReads.length).toBeLessThan(blocks.length / 4);
    let at = blocks[0]!.offset;
    for (const [, offset, length] of sliceReads) {
      expect(offset).toBe(at);
      expect(length).toBeLessThanOrEqual(MAX_KEYED_SLICE_BYTES);
      at += length;
    }
    expect(at).toBe(sp.manifest.files[0]!.size);
  });

  it('with reuseReadBuffers every slice goes through readInto into two alternating buffers, with the same entries', async () => {
    const keyed = await openFirstKeyedStream(sp.dir);
    const input = keyed!.input!;
    const targets: ArrayBufferLike[] = [];
    let plainReads = 0;
    const source: ByteSource = {
      name: input.source.name,
      size: input.source.size,
      read: (offset, length) => (plainReads++, input.source.read(offset, length)),
      readInto: async (offset, length, target) => {
        targets.push(target.buffer);
        const bytes = await input.source.read(offset, length);
        target.set(bytes);
        return target.subarray(0, length);
      },
    };
    // what a whole-state tally keeps of each entry (nothing that points into the buffers)
    const describe = (e: StateEntry) =>
      JSON.stringify([e.keyGroup, e.key, e.namespace, e.valueRange, e.value], (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
    const expected: string[] = [];
    for await (const e of readCanonicalKeyedEntries(input, keyed!.header!)) expected.push(describe(e));
    const got: string[] = [];
    for await (const run of readCanonicalKeyedEntryRuns({ ...input, source }, keyed!.header!, { reuseReadBuffers: true }))
      for (const e of run) got.push(describe(e));
    expect(got).toEqual(expected);
    const slices = groupKeyGroupSlices(listKeyGroupBlocks(input));
    expect(slices.length).toBeGreaterThan(3);
    expect(plainReads).toBe(0);
    expect(targets.length).toBe(slices.length);
    // slice i and i + 1 never share a buffer; slice i and i + 2 do once both fit
    for (let i = 1; i < targets.length; i++) expect(targets[i]).not.toBe(targets[i - 1]);
    expect(new Set(targets).size).toBeLessThan(targets.length);
  });

  it('a consumer that stops within the first slice reads nothing more', async () => {
    const keyed = await openFirstKeyedStream(sp.dir);
    const reads: number[] = [];
    const source = keyed!.input!.source;
    const counting: ByteSource = { name: source.name, size: source.size, read: (offset, length) => (reads.push(length), source.read(offset, length)) };
    for await (const entry of readCanonicalKeyedEntries({ ...keyed!.input!, source: counting }, keyed!.header!)) {
      expect(entry.keyGroup).toBe(listKeyGroupBlocks(keyed!.input!)[0]!.keyGroup);
      break;
    }
    expect(reads).toEqual([groupKeyGroupSlices(listKeyGroupBlocks(keyed!.input!))[0]!.end - listKeyGroupBlocks(keyed!.input!)[0]!.offset]);
    expect(reads[0]).toBeLessThanOrEqual(FIRST_KEYED_SLICE_BYTES);
  });

  it('a consumer that stops in the second slice leaves the read-ahead of the third settled, even when it fails', async () => {
    const keyed = await openFirstKeyedStream(sp.dir);
    const reads: [string, number, number][] = [];
    const source = keyed!.input!.source;
    let refused = 0;
    const failing: ByteSource = {
      name: source.name,
      size: source.size,
      read(offset, length) {
        reads.push(['', offset, length]);
        if (reads.length > 2) {
          refused++;
          return Promise.reject(new DecodeError({ code: 'truncated', detail: 'test: read refused', file: source.name, offset }));
        }
        return source.read(offset, length);
      },
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown): void => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const second = groupKeyGroupSlices(listKeyGroupBlocks(keyed!.input!))[1]!;
      for await (const entry of readCanonicalKeyedEntries({ ...keyed!.input!, source: failing }, keyed!.header!)) {
        if (entry.keyGroup === second.blocks[0]!.keyGroup) break;
      }
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(reads.length).toBe(3); // the first two slices, and the read-ahead of the third
    expect(refused).toBe(1);
    expect(unhandled).toEqual([]);
  });

  it('one set of reused buffers serves stream after stream: a stream stopped with a read-ahead in flight waits for it, so the next stream reads its own bytes', async () => {
    const keyed = await openFirstKeyedStream(sp.dir);
    const input = keyed!.input!;
    const source = input.source;
    let inFlight = 0;
    // slow reads into the caller's buffer, so a stopped stream's read-ahead is still running when it stops
    const slow: ByteSource = {
      name: source.name,
      size: source.size,
      read: (offset, length) => source.read(offset, length),
      readInto: async (offset, length, target) => {
        inFlight++;
        try {
          await new Promise((r) => setTimeout(r, 15));
          return await source.readInto!(offset, length, target);
        } finally {
          inFlight--;
        }
      },
    };
    const readBuffers = new KeyedReadBuffers();
    const second = groupKeyGroupSlices(listKeyGroupBlocks(input))[1]!;
    let stopped = false;
    for await (const run of readCanonicalKeyedEntryRuns({ ...input, source: slow }, keyed!.header!, { reuseReadBuffers: true, readBuffers })) {
      if (run.keyGroup === second.blocks[0]!.keyGroup) {
        stopped = true;
        break;
      }
    }
    const inFlightAtStop = inFlight;
    expect(stopped).toBe(true);
    expect(inFlightAtStop).toBe(0);
    // the same buffers again, read to the end: the entries of a fresh read
    const describe = (e: StateEntry) =>
      JSON.stringify([e.keyGroup, e.state, e.key, e.valueRange, e.value], (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
    const again: string[] = [];
    for await (const run of readCanonicalKeyedEntryRuns({ ...input, source: slow }, keyed!.header!, { reuseReadBuffers: true, readBuffers }))
      for (const e of run) again.push(describe(e));
    const fresh: string[] = [];
    for await (const e of readCanonicalKeyedEntries(input, keyed!.header!)) fresh.push(describe(e));
    expect(again).toEqual(fresh);
  });
});

describe('large key-group blocks (4 key groups of ~1.5 MiB) are streamed in windows', () => {
  const sp = useGeneratedBenchSavepoint('perf-windows-', { targetBytes: 6 * 1024 * 1024, parallelism: 1, maxParallelism: 4 });

  it('streams blocks above the window size in windows: the same entries for any window, even one smaller than an entry', async () => {
    const keyed = await openFirstKeyedStream(sp.dir);
    const input = keyed!.input!;
    const describe = (e: StateEntry) =>
      JSON.stringify([e.keyGroup, e.state, e.key, e.valueRange, e.value], (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
    const expected: string[] = [];
    for await (const e of readCanonicalKeyedEntries(input, keyed!.header!)) expected.push(describe(e));
    const blocks = listKeyGroupBlocks(input);
    expect(blocks.length).toBe(4);
    const largest = Math.max(...blocks.map((b) => b.end - b.offset));
    expect(largest).toBeGreaterThan(MAX_KEYED_SLICE_BYTES);
    // 100 bytes is below most values (~1 KiB): windows double until an entry fits
    for (const window of [100, 4096, Math.floor(largest / 3)]) {
      const reads: number[] = [];
      const source: ByteSource = {
        name: input.source.name,
        size: input.source.size,
        read: (offset, length) => (reads.push(length), input.source.read(offset, length)),
      };
      const got: string[] = [];
      let runs = 0;
      for await (const run of readCanonicalKeyedEntryRuns({ ...input, source }, keyed!.header!, { blockWindowBytes: window })) {
        runs++;
        for (const e of run) got.push(describe(e));
      }
      expect(got).toEqual(expected);
      expect(runs).toBeGreaterThan(blocks.length);
      expect(Math.max(...reads)).toBeLessThan(Math.max(2 * window, 4 * 1024));
    }
  });

  it('with reused buffers (a whole-state scan): the same entries, and the next window (of this block or the next) read while a run is consumed', async () => {
    const keyed = await openFirstKeyedStream(sp.dir);
    const input = keyed!.input!;
    const describe = (e: StateEntry) =>
      JSON.stringify([e.keyGroup, e.state, e.key, e.valueRange, e.value], (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
    const expected: string[] = [];
    for await (const e of readCanonicalKeyedEntries(input, keyed!.header!)) expected.push(describe(e));
    // 100 bytes: windows double until an entry fits; 4096: several entries per window
    for (const window of [100, 4096]) {
      const reads: { offset: number; length: number }[] = [];
      const source: ByteSource = {
        name: input.source.name,
        size: input.source.size,
        read: (offset, length) => input.source.read(offset, length),
        readInto: (offset, length, target) => {
          reads.push({ offset, length });
          return input.source.readInto!(offset, length, target);
        },
      };
      const got: string[] = [];
      let runs = 0;
      let aheadOfRun = 0;
      for await (const run of readCanonicalKeyedEntryRuns({ ...input, source }, keyed!.header!, { blockWindowBytes: window, reuseReadBuffers: true })) {
        runs++;
        // when a run arrives, the read of a later window has already been issued
        if (reads.at(-1)!.offset > run.baseOffset - input.baseOffset) aheadOfRun++;
        for (const e of run) got.push(describe(e));
      }
      expect(got).toEqual(expected);
      // reads go forward; a window is read again only larger, at the same offset (an entry larger than it)
      let again = 0;
      for (let k = 1; k < reads.length; k++) {
        if (reads[k]!.offset === reads[k - 1]!.offset) {
          expect(reads[k]!.length).toBeGreaterThan(reads[k - 1]!.length);
          again++;
        } else expect(reads[k]!.offset).toBeGreaterThan(reads[k - 1]!.offset);
      }
      // a window grown for a large entry stays grown for the rest of its block: with 100-byte windows
      // (every entry larger) a handful of doublings per block (entries up to ~2.4 KiB), not one per window
      if (window === 100) {
        expect(again).toBeLessThanOrEqual(4 * 6);
        expect(reads.length - again).toBeGreaterThan(1000);
      }
      // every run but the very last comes with the next window already asked for (the last run of a
      // block with the first window of the next block, all four blocks being streamed)
      expect(runs).toBeGreaterThan(8);
      expect(aheadOfRun).toBe(runs - 1);
    }
  });

  it('by default a whole-state scan of a local file reads windows of KEYED_SCAN_WINDOW_BYTES, other readers these blocks whole (KEYED_BLOCK_WINDOW_BYTES)', async () => {
    expect(KEYED_SCAN_WINDOW_BYTES).toBe(1024 * 1024);
    expect(KEYED_BLOCK_WINDOW_BYTES).toBe(4 * 1024 * 1024);
    const keyed = await openFirstKeyedStream(sp.dir);
    const input = keyed!.input!;
    const blocks = listKeyGroupBlocks(input);
    expect(blocks.map((b) => b.end - b.offset > KEYED_SCAN_WINDOW_BYTES && b.end - b.offset < KEYED_BLOCK_WINDOW_BYTES)).toEqual([true, true, true, true]);
    const readsWith = async (reuseReadBuffers: boolean) => {
      const reads: number[] = [];
      const source: ByteSource = {
        name: input.source.name,
        size: input.source.size,
        read: (offset, length) => {
          reads.push(length);
          return input.source.read(offset, length);
        },
        readInto: (offset, length, target) => {
          reads.push(length);
          return input.source.readInto!(offset, length, target);
        },
      };
      let entries = 0;
      for await (const run of readCanonicalKeyedEntryRuns({ ...input, source }, keyed!.header!, { reuseReadBuffers })) for (const _ of run) entries++;
      return { reads, entries };
    };
    const scan = await readsWith(true);
    const listing = await readsWith(false);
    expect(scan.entries).toBe(listing.entries);
    expect(Math.max(...scan.reads)).toBe(KEYED_SCAN_WINDOW_BYTES);
    expect(scan.reads.length).toBeGreaterThanOrEqual(8);
    expect(listing.reads).toEqual(blocks.map((b) => b.end - b.offset));
  });

  it('a truncated large block fails with the whole-block error (text and offset) when streamed', async () => {
    const keyed = await openFirstKeyedStream(sp.dir);
    const input = keyed!.input!;
    const last = listKeyGroupBlocks(input).at(-1)!;
    // the stream ends 10 bytes early: the last block's final entry is cut
    const cut: typeof input = { ...input, source: sliceSource(input.source, 0, last.end - 10, input.source.name) };
    const fail = async (options: { blockWindowBytes?: number }) => {
      try {
        for await (const run of readCanonicalKeyedEntryRuns(cut, keyed!.header!, options)) for (const _ of run);
      } catch (e) {
        return isDecodeError(e) ? e.message : String(e);
      }
      return 'no error';
    };
    const whole = await fail({});
    expect(whole).toMatch(/^expected \d+ bytes? for (value bytes|key bytes|value length|key length|kv-state id or end-of-key-group mark), found \d+/);
    expect(await fail({ blockWindowBytes: 512 })).toBe(whole);
  });
});

describe('Snappy-compressed key-group blocks are streamed too (committed compressed fixtures)', () => {
  const fixtures = ['flink-1.20/hashmap', 'flink-1.20/rocksdb', 'flink-2.3/hashmap', 'flink-2.3/rocksdb'].map((v) =>
    path.resolve(process.cwd(), `fixtures/savepoints/${v}/canonical-compressed/savepoint`),
  );

  it('gives every keyed stream the same entries, offsets and file labels for any window, with reused buffers or not', async () => {
    let compressedStreams = 0;
    let streamedBlocks = 0;
    for (const dir of fixtures) {
      const registry = createSnapshotRegistry();
      registerProtobufSnapshotReaders(registry);
      const opened = await openSavepoint(await openNodeInput(dir));
      for (const op of opened.metadata.operators) {
        for (const subtask of op.subtasks) {
          const keyed = await readSubtaskKeyedStream(opened, op, subtask, registry);
          if (!keyed?.input || !keyed.header || keyed.format !== 'canonical') continue;
          expect(keyed.header.compressed).toBe(true);
          compressedStreams++;
          const describe = (e: StateEntry) =>
            JSON.stringify([e.keyGroup, e.state, e.file, e.key, e.userKey, e.namespace, e.keyRange, e.valueRange, e.value], (_k, v: unknown) =>
              typeof v === 'bigint' ? String(v) : v,
            );
          const expected: string[] = [];
          for await (const e of readCanonicalKeyedEntries(keyed.input, keyed.header)) expected.push(describe(e));
          streamedBlocks += listKeyGroupBlocks(keyed.input).filter((b) => b.end - b.offset > 16).length;
          for (const [window, reuse] of [
            [16, false],
            [16, true],
            [200, false],
            [1 << 20, false],
          ] as const) {
            const got: string[] = [];
            for await (const run of readCanonicalKeyedEntryRuns(keyed.input, keyed.header, { blockWindowBytes: window, reuseReadBuffers: reuse }))
              for (const e of run) got.push(describe(e));
            expect(got, `${dir} ${op.id} subtask ${subtask.index} window ${window}`).toEqual(expected);
          }
        }
      }
    }
    expect(compressedStreams).toBeGreaterThan(4);
    expect(streamedBlocks).toBeGreaterThan(10);
  });

  it('a corrupt compressed block streamed in windows fails as the whole-block decoder does: a DecodeError, not a crash', async () => {
    const dir = fixtures[2]!;
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    const opened = await openSavepoint(await openNodeInput(dir));
    const op = opened.metadata.operators.find((o) => o.uid === 'int-keyed' || o.subtasks.length > 0)!;
    let keyed;
    for (const s of op.subtasks) {
      keyed = await readSubtaskKeyedStream(opened, op, s, registry);
      if (keyed?.input) break;
    }
    const input = keyed!.input!;
    const block = listKeyGroupBlocks(input)[0]!;
    // the stream ends in the middle of the first block's Snappy data
    const cut = {
      ...input,
      offsets: input.offsets.map((o) => (o === block.offset ? o : 0)),
      source: sliceSource(input.source, 0, block.offset + Math.floor((block.end - block.offset) / 2), input.source.name),
    };
    const outcome = async (options: { blockWindowBytes?: number }) => {
      try {
        for await (const run of readCanonicalKeyedEntryRuns(cut, keyed!.header!, options)) for (const _ of run);
        return 'no error';
      } catch (e) {
        return isDecodeError(e) ? `DecodeError ${e.code}` : `crash ${String(e)}`;
      }
    };
    expect(await outcome({})).toMatch(/^DecodeError /);
    expect(await outcome({ blockWindowBytes: 16 })).toMatch(/^DecodeError /);
  });
});
