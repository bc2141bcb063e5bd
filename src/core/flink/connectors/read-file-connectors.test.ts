import { describe, expect, it } from 'vitest';
import { ByteWriter } from '../../io';
import { buildFileSinkView, buildFileSourceView, type Element, type OperatorRef } from './read-file-connectors';

const REF: OperatorRef = { operatorId: 'b'.repeat(32), uid: null, name: null, parallelism: 2 };
const utf8 = new TextEncoder();

function envelope(version: number, payload: Uint8Array): Uint8Array {
  return new ByteWriter().i32(version).i32(payload.length).bytes(payload).finish();
}

function element(subtask: number, index: number, bytes: Uint8Array): Element {
  return { subtask, index, bytes, file: 'state', offset: 100 };
}

function le32(w: ByteWriter, v: number): ByteWriter {
  return w.bytes([v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff]);
}

/** FileSourceSplitSerializer v1 of a local file (Path: scheme "file", no user info/host, port -1, the path). */
function fileSplit(id: string, file: string, position: [bigint, bigint] | null, hosts: string[] = []): Uint8Array {
  const w = new ByteWriter().utf(id).bool(true);
  w.bool(true).stringValue('file').bool(false).bool(false).i32(-1).bool(true).stringValue(file).bool(false).bool(false);
  w.i64(0n).i64(1000n).i64(1_700_000_000_000n).i64(1000n).i32(hosts.length);
  for (const h of hosts) w.utf(h);
  w.bool(position !== null);
  if (position) w.i64(position[0]).i64(position[1]);
  return w.finish();
}

/** SourceCoordinator serde v1 around a PendingSplitsCheckpointSerializer state (version `version`). */
function coordinator(splits: Uint8Array[], paths: string[], version = 1) {
  const e = le32(le32(le32(le32(new ByteWriter(), 0xdeadbeef | 0), 1), splits.length), paths.length);
  for (const s of splits) le32(e, s.length).bytes(s);
  for (const p of paths) le32(e, utf8.encode(p).length).bytes(utf8.encode(p));
  const enumBytes = e.finish();
  const data = new ByteWriter().i32(1).i32(version).i32(enumBytes.length).bytes(enumBytes).finish();
  return { kind: 'inline' as const, name: 'coordinator', size: data.length, offset: 40, data };
}

function localRecoverable(target: string, temp: string, offset: bigint): Uint8Array {
  const t = utf8.encode(target);
  const m = utf8.encode(temp);
  const w = le32(new ByteWriter(), 0x1e744b57);
  const o = new ByteWriter().i64(offset).finish().reverse();
  return le32(le32(w.bytes(o), t.length), m.length)
    .bytes(t)
    .bytes(m)
    .finish();
}

function inProgress(path: string, temp: string, offset: bigint): Uint8Array {
  return new ByteWriter()
    .i32(0xb3a4073d | 0)
    .bool(true)
    .utf(path)
    .bytes(envelope(1, localRecoverable(path, temp, offset)))
    .finish();
}

function pendingFile(path: string, temp: string, size: bigint, fsVersion = 1, fsBytes?: Uint8Array): Uint8Array {
  return new ByteWriter()
    .i32(0x2c853c89)
    .bool(true)
    .utf(path)
    .i64(size)
    .bytes(envelope(fsVersion, fsBytes ?? localRecoverable(path, temp, size)))
    .finish();
}

function bucketState(bucket: string, inProgressBytes: Uint8Array | null): Uint8Array {
  const id = utf8.encode(bucket);
  const w = new ByteWriter().i32(0x1e764b79).bytes(envelope(1, le32(new ByteWriter(), id.length).bytes(id).finish()));
  w.utf(`/out/${bucket}`)
    .i64(1234n)
    .bool(inProgressBytes !== null);
  if (inProgressBytes) w.bytes(envelope(2, inProgressBytes));
  return w.finish();
}

function committable(bucket: string, pending: Uint8Array): Uint8Array {
  return new ByteWriter().i32(0x1e765c80).utf(bucket).bool(true).bytes(envelope(2, pending)).bool(false).bool(false).finish();
}

/** CommittableCollectorSerializer v2: one checkpoint (v1), one subtask (v1), the committables as requests (v0). */
function collector(checkpoint: bigint, subtask: number, committables: [number, Uint8Array][]): Uint8Array {
  const rq = committables.map(([v, c]) => new ByteWriter().i32(v).i32(c.length).bytes(c).i32(0).i32(0).finish());
  const list = (version: number, items: Uint8Array[]) => {
    const w = new ByteWriter().i32(version).i32(items.length);
    for (const i of items) w.i32(i.length).bytes(i);
    return w.finish();
  };
  const st = new ByteWriter().i32(subtask).bytes(list(0, rq)).i32(rq.length).i32(0).i32(0).finish();
  const cp = new ByteWriter()
    .i64(checkpoint)
    .i32(2)
    .bytes(list(1, [st]))
    .finish();
  return envelope(
    2,
    new ByteWriter()
      .i32(0xb91f252c | 0)
      .bytes(list(1, [cp]))
      .finish(),
  );
}

describe('buildFileSourceView', () => {
  it('decodes reader splits (path, range, hosts, position) and the enumerator (pending splits, processed paths)', () => {
    const v = buildFileSourceView(
      REF,
      [element(1, 0, envelope(1, fileSplit('7', '/in/b.txt', [-1n, 42n], ['h1']))), element(0, 0, envelope(1, fileSplit('5', '/in/a.txt', [300n, 2n])))],
      coordinator([fileSplit('9', '/in/c.txt', null)], ['file:/in/c.txt', 'file:/in/a.txt']),
      [],
    )!;
    expect(v.problems).toEqual([]);
    const common = { offset: '0', length: '1000', fileModificationTime: '1700000000000', fileSize: '1000' };
    expect(v.splits).toEqual([
      { subtask: 0, splitId: '5', path: 'file:/in/a.txt', ...common, hostnames: [], position: { offset: '300', recordsAfterOffset: '2' } },
      { subtask: 1, splitId: '7', path: 'file:/in/b.txt', ...common, hostnames: ['h1'], position: { offset: '-1', recordsAfterOffset: '42' } },
    ]);
    expect(v.enumerator).toEqual({
      coordinatorSerdeVersion: 1,
      enumStateVersion: 1,
      splitSerializerVersion: 1,
      pendingSplits: [{ subtask: -1, splitId: '9', path: 'file:/in/c.txt', ...common, hostnames: [], position: null }],
      alreadyProcessedPaths: ['file:/in/a.txt', 'file:/in/c.txt'],
    });
  });

  it('is not a file source when neither a split nor the enumerator has the file layout (a Kafka split)', () => {
    const kafka = new ByteWriter().utf('orders').i32(0).i64(4n).i64(50n).finish();
    expect(buildFileSourceView(REF, [element(0, 0, envelope(0, kafka))], undefined, [])).toBeUndefined();
  });

  it('a split of an unknown serializer version is named, not guessed; a cut split is corrupt (exact messages)', () => {
    const good = element(0, 0, envelope(1, fileSplit('1', '/in/a.txt', null)));
    const v = buildFileSourceView(
      REF,
      [good, element(0, 1, envelope(2, fileSplit('2', '/in/b.txt', null))), element(1, 0, envelope(1, fileSplit('3', '/in/c.txt', [0n, 1n]).subarray(0, 60)))],
      undefined,
      [],
    )!;
    expect(v.splits.map((s) => s.splitId)).toEqual(['1']);
    expect(v.problems.map((p) => [p.kind, p.state, p.subtask, p.element, p.message])).toEqual([
      [
        'unsupported-version',
        'SourceReaderState',
        0,
        1,
        'split #1 of subtask 0: expected FileSourceSplitSerializer version 1, found version 2 — at state, offset 108 (0x6c)',
      ],
      ['corrupt', 'SourceReaderState', 1, 0, 'split #0 of subtask 1: expected 8 bytes for file size, found 7 — at state, offset 161 (0xa1)'],
    ]);
  });

  it('an enumerator state of an unknown version, or cut short, is named with the exact message', () => {
    const split = element(0, 0, envelope(1, fileSplit('1', '/in/a.txt', null)));
    const v2 = buildFileSourceView(REF, [split], coordinator([], ['file:/in/a.txt'], 2), [])!;
    expect(v2.enumerator).toBeNull();
    expect(v2.problems.map((p) => [p.kind, p.state, p.message])).toEqual([
      [
        'unsupported-version',
        'coordinator state',
        'FileSource enumerator state: expected PendingSplitsCheckpointSerializer version 1, found version 2 — at _metadata, offset 52 (0x34)',
      ],
    ]);
    const c = coordinator([], ['file:/in/a.txt']);
    const cut = { ...c, data: c.data.subarray(0, c.data.length - 3) };
    const v = buildFileSourceView(REF, [split], cut, [])!;
    expect(v.problems.map((p) => [p.kind, p.message])).toEqual([
      ['corrupt', 'source coordinator state: expected an enumerator state length between 0 and the 31 bytes left, found 34 — at _metadata, offset 48 (0x30)'],
    ]);
    // cut inside the enumerator state (its envelope's length fits): the last processed path is short
    const enumBytes = c.data.subarray(12, c.data.length - 3);
    const data = new ByteWriter().i32(1).i32(1).i32(enumBytes.length).bytes(enumBytes).finish();
    const inner = buildFileSourceView(REF, [split], { ...c, data, size: data.length }, [])!;
    expect(inner.enumerator).toBeNull();
    expect(inner.problems.map((p) => [p.kind, p.message])).toEqual([
      [
        'corrupt',
        'FileSource enumerator state: expected a length of processed path #0 between 0 and the 11 bytes left, found 14 — at _metadata, offset 68 (0x44)',
      ],
    ]);
  });
});

describe('buildFileSinkView', () => {
  it('decodes writer buckets with their in-progress file, and committables of a local and of another file system', () => {
    const w = buildFileSinkView(
      REF,
      [
        element(0, 0, envelope(3, bucketState('east', inProgress('file:/out/east/part-0', '/out/east/.part-0.inprogress.x', 58n)))),
        element(1, 0, envelope(3, bucketState('west', null))),
      ],
      [],
      [],
    )!;
    expect(w.connector).toBe('file-writer');
    expect(w.problems).toEqual([]);
    expect(w.buckets).toEqual([
      {
        subtask: 0,
        stateVersion: 3,
        bucketId: 'east',
        bucketPath: '/out/east',
        inProgressFileCreationTime: '1234',
        inProgressFile: {
          path: 'file:/out/east/part-0',
          size: null,
          recoverable: { kind: 'local', offset: '58', targetFile: 'file:/out/east/part-0', tempFile: '/out/east/.part-0.inprogress.x' },
        },
      },
      { subtask: 1, stateVersion: 3, bucketId: 'west', bucketPath: '/out/west', inProgressFileCreationTime: '1234', inProgressFile: null },
    ]);
    const c = buildFileSinkView(
      REF,
      [],
      [
        element(
          0,
          0,
          collector(3n, 0, [
            [2, committable('east', pendingFile('/out/east/part-1', '/out/east/.part-1.x', 116n))],
            [2, committable('west', pendingFile('s3://b/west/part-1', '', 99n, 4, new Uint8Array(17)))],
          ]),
        ),
      ],
      [],
    )!;
    expect(c.connector).toBe('file-committer');
    expect(c.problems).toEqual([]);
    expect(c.committables.map((x) => [x.subtask, x.checkpointId, x.bucketId, x.pendingFile])).toEqual([
      [
        0,
        '3',
        'east',
        {
          path: '/out/east/part-1',
          size: '116',
          recoverable: { kind: 'local', offset: '116', targetFile: '/out/east/part-1', tempFile: '/out/east/.part-1.x' },
        },
      ],
      [0, '3', 'west', { path: 's3://b/west/part-1', size: '99', recoverable: { kind: 'other-file-system', serializerVersion: 4, bytes: 17 } }],
    ]);
  });

  it('unknown versions of the bucket state and the committable are named, a cut bucket state is corrupt (exact messages)', () => {
    const good = element(0, 0, envelope(3, bucketState('east', null)));
    const v = buildFileSinkView(
      REF,
      [good, element(0, 1, envelope(2, bucketState('west', null))), element(1, 0, envelope(3, bucketState('north', null).subarray(0, 30)))],
      [],
      [],
    )!;
    expect(v.buckets.map((b) => b.bucketId)).toEqual(['east']);
    expect(v.problems.map((p) => [p.kind, p.state, p.subtask, p.element, p.message])).toEqual([
      [
        'unsupported-version',
        'writer_raw_states',
        0,
        1,
        'writer state #1 of subtask 0: expected FileWriterBucketStateSerializer version 3, found version 2 (the FileSink writer state of Flink ≤ 1.14, with pending files per checkpoint: not decoded) — at state, offset 108 (0x6c)',
      ],
      [
        'corrupt',
        'writer_raw_states',
        1,
        0,
        'writer state #0 of subtask 1: expected 10 bytes for bucket path (10 bytes of modified UTF-8), found 7 — at state, offset 131 (0x83)',
      ],
    ]);
    const c = buildFileSinkView(REF, [], [element(1, 0, collector(1n, 1, [[1, committable('east', pendingFile('/p', '/t', 1n))]]))], [])!;
    expect(c.committables).toEqual([]);
    expect(c.problems.map((p) => [p.kind, p.state, p.subtask, p.element, p.message])).toEqual([
      [
        'unsupported-version',
        'streaming_committer_raw_states',
        1,
        0,
        'committer state #0 of subtask 1, committable #0: expected FileSinkCommittableSerializer version 2, found version 1 (the FileSink committable of Flink ≤ 1.14, without a bucket id: not decoded) — at state, offset 172 (0xac)',
      ],
    ]);
  });
});
