/**
 * walkFramedRows (scanState's way through a run of keyed entries in a `frame` scan: rows read in place
 * where the key is surely valid and the value is one Protobuf frame) sees what iterating the run's
 * entries sees: per entry the state, the value's size, the frames inside the value (offset, declared
 * length, payload bytes) and the key's text, in the same order, with the same error at the same place
 * for a corrupt stream. Over every canonical fixture savepoint (plain, Snappy, inline
 * state; Flink 1.20 and 2.3) and a generated one read in whole blocks and in small windows.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeEntryKey } from '../../src/core/compat';
import { createSnapshotRegistry, openSavepoint, type StateEntry, type ValueFrame } from '../../src/core/flink';
import { readCanonicalKeyedEntryRuns, type KeyedReadOptions } from '../../src/core/flink/keyed/read-canonical-keyed-entries';
import { readSubtaskKeyedStream } from '../../src/core/flink/headers/read-subtask-state-headers';
import { walkFramedRows } from '../../src/core/flink/scan/scan-state';
import { type KeyedStreamInput } from '../../src/core/flink/keyed/keyed-stream-types';
import { listProtobufFrames, registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { isDecodeError, type ByteSource } from '../../src/core/io';
import { openNodeInput } from '../../src/cli/sources';
import { useGeneratedBenchSavepoint } from '../helpers/use-generated-bench-savepoint';

const FIXTURES = path.resolve(__dirname, '../../fixtures/savepoints');
const CANONICAL = ['flink-1.20', 'flink-2.3']
  .flatMap((v) =>
    ['hashmap', 'rocksdb'].flatMap((b) => ['canonical', 'canonical-compressed', 'canonical-inline'].map((k) => path.join(FIXTURES, v, b, k, 'savepoint'))),
  )
  .filter((d) => {
    try {
      readFileSync(path.join(d, '_metadata'));
      return true;
    } catch {
      return false;
    }
  });

interface Seen {
  records: string[];
  fast: number;
  error?: string;
}

type Stream = { input: KeyedStreamInput; header: NonNullable<Awaited<ReturnType<typeof readSubtaskKeyedStream>>>['header'] & object };

/** The keyed canonical streams of a savepoint. */
async function openStreams(dir: string): Promise<Stream[]> {
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  const opened = await openSavepoint(await openNodeInput(dir));
  const out: Stream[] = [];
  for (const op of opened.metadata.operators) {
    for (const subtask of op.subtasks) {
      const keyed = await readSubtaskKeyedStream(opened, op, subtask, registry);
      if (keyed?.format === 'canonical' && keyed.input && keyed.header) out.push({ input: keyed.input, header: keyed.header });
    }
  }
  return out;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const frameText = (f: ValueFrame) => `${f.offset}+${f.length}:${hex(f.bytes.subarray(f.payloadStart, f.end))}`;

/** What `stats` takes from an entry: its state, value size, the frames inside its value, its key text. */
function recordEntry(records: string[], e: StateEntry): void {
  const frames = listProtobufFrames(e.value).map(frameText);
  records.push(`${e.state} ${e.valueRange?.length} [${frames.join()}] ${describeEntryKey(e.key, e.userKey)}`);
}

async function readAll(streams: Stream[], walk: boolean, options: KeyedReadOptions): Promise<Seen> {
  const seen: Seen = { records: [], fast: 0 };
  try {
    for (const { input, header } of streams) {
      for await (const run of readCanonicalKeyedEntryRuns(input, header, { ...options, reuseReadBuffers: true, values: { mode: 'frame' } })) {
        if (!walk) for (const e of run) recordEntry(seen.records, e);
        else {
          walkFramedRows(
            run,
            (e) => recordEntry(seen.records, e),
            (i, frame) => {
              seen.fast++;
              const key = run.decodeRowKey(i);
              seen.records.push(
                `${run.stateOf(i)} ${run.valueEnd(i) - run.valueStart(i)} [${frame ? frameText(frame) : ''}] ${describeEntryKey(key.key, key.userKey)}`,
              );
            },
          );
        }
      }
    }
  } catch (e) {
    if (!isDecodeError(e)) throw e;
    seen.error = `${e.code} ${e.file} @${e.offset}: ${e.message}`;
  }
  return seen;
}

async function compare(dir: string, options: KeyedReadOptions = {}, patch?: (streams: Stream[]) => Stream[]): Promise<{ iterated: Seen; walked: Seen }> {
  const s1 = await openStreams(dir);
  const s2 = await openStreams(dir);
  const iterated = await readAll(patch ? patch(s1) : s1, false, options);
  const walked = await readAll(patch ? patch(s2) : s2, true, options);
  return { iterated, walked };
}

/** A source with one byte replaced (offset in the source's coordinates). */
function patchSource(source: ByteSource, at: number, value: number): ByteSource {
  const fix = (offset: number, out: Uint8Array) => {
    if (at >= offset && at < offset + out.length) out[at - offset] = value;
    return out;
  };
  return {
    name: source.name,
    size: source.size,
    read: async (offset, length) => fix(offset, await source.read(offset, length)),
    ...(source.readInto
      ? { readInto: async (offset: number, length: number, target: Uint8Array) => fix(offset, await source.readInto!(offset, length, target)) }
      : {}),
  };
}

describe('walkFramedRows sees what iterating the run sees', () => {
  const bench = useGeneratedBenchSavepoint('walk-runs-', { targetBytes: 768 * 1024, parallelism: 2 });

  it('every canonical fixture savepoint', async () => {
    expect(CANONICAL.length).toBeGreaterThanOrEqual(8);
    let fast = 0;
    for (const dir of CANONICAL) {
      const { iterated, walked } = await compare(dir);
      expect(iterated.error, dir).toBeUndefined();
      expect(walked.records, dir).toEqual(iterated.records);
      fast += walked.fast;
    }
    // the fixtures' Protobuf value states go the fast way (a walk that always decoded would pass the comparison alone)
    expect(fast).toBeGreaterThan(100);
  });

  it('a generated savepoint, in whole blocks and in 4 KiB windows', async () => {
    for (const options of [{}, { blockWindowBytes: 4096 }]) {
      const { iterated, walked } = await compare(bench.dir, options);
      expect(iterated.error).toBeUndefined();
      expect(iterated.records.length).toBeGreaterThan(500);
      expect(walked.records).toEqual(iterated.records);
      expect(walked.fast).toBe(iterated.records.length);
    }
  });

  it('corrupt keys (the same entries before the same error) and corrupt value frames', async () => {
    // every key-group prefix wrong: numbering the key groups one higher
    const shifted = await compare(bench.dir, {}, (streams) =>
      streams.map((s) => ({ ...s, input: { ...s.input, range: { ...s.input.range, start: s.input.range.start + 1 } } })),
    );
    expect(shifted.iterated.error).toMatch(/expected the key-group prefix of key group \d+, found \d+/);
    expect(shifted.walked).toEqual({ ...shifted.iterated, fast: 0 });

    // one String key of the first stream made longer than its bytes (length varint 0x7f: 126 characters)
    const [first] = await openStreams(bench.dir);
    let tenth: StateEntry | undefined;
    let n = 0;
    for await (const run of readCanonicalKeyedEntryRuns(first!.input, first!.header)) {
      for (const e of run) if (++n === 10) tenth = e;
      if (tenth) break;
    }
    const at = tenth!.keyRange!.offset - first!.input.baseOffset + 1; // after the one-byte key-group prefix
    const cut = await compare(bench.dir, {}, (streams) =>
      streams.map((s, i) => (i === 0 ? { ...s, input: { ...s.input, source: patchSource(s.input.source, at, 0x7f) } } : s)),
    );
    expect(cut.iterated.error).toMatch(/^truncated .*expected 126 characters for String value, found only \d+ bytes/);
    expect(cut.iterated.records.length).toBe(9);
    expect(cut.walked).toEqual({ ...cut.iterated, fast: 9 });

    // values, not keys: the tenth value's frame declares 64 KiB more than the value holds (the codec
    // hands over the bytes present), and the eleventh's length is negative (no frame at all)
    const valueAt = (e: StateEntry) => e.valueRange!.offset - first!.input.baseOffset;
    const eleventh = await (async () => {
      let k = 0;
      for await (const run of readCanonicalKeyedEntryRuns(first!.input, first!.header)) for (const e of run) if (++k === 11) return e;
      return undefined;
    })();
    const values = await compare(bench.dir, {}, (streams) =>
      streams.map((s, i) =>
        i === 0 ? { ...s, input: { ...s.input, source: patchSource(patchSource(s.input.source, valueAt(tenth!) + 1, 0x01), valueAt(eleventh!), 0x80) } } : s,
      ),
    );
    expect(values.iterated.error).toBeUndefined();
    expect(values.iterated.records[9]).toMatch(/^\S+ \d+ \[\d+\+\d{5,}:[0-9a-f]+\] /);
    expect(values.iterated.records[10]).toMatch(/^\S+ \d+ \[\] /);
    expect(values.walked.records).toEqual(values.iterated.records);
  });
});
