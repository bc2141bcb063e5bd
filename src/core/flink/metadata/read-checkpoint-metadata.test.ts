import { describe, expect, it } from 'vitest';
import { decodeErrorOf } from '../../../../tests/helpers/decode-error-of';
import { ByteWriter } from '../../io';
import { readCheckpointMetadata } from './read-checkpoint-metadata';

// A Java-serialized CheckpointProperties{CheckpointType("Full Checkpoint")} (see read-checkpoint-properties.test.ts)
const TRAILER = Uint8Array.from(
  'aced0005737200386f72672e6170616368652e666c696e6b2e72756e74696d652e636865636b706f696e742e436865636b706f696e7450726f7065727469657300000000000000020200085a00106469736361726443616e63656c6c65645a000d646973636172644661696c65645a000f6469736361726446696e69736865645a000f6469736361726453756273756d65645a00106469736361726453757370656e6465645a0006666f726365645a0009756e636c61696d65644c000e636865636b706f696e74547970657400324c6f72672f6170616368652f666c696e6b2f72756e74696d652f636865636b706f696e742f536e617073686f74547970653b787001010101010000737200326f72672e6170616368652e666c696e6b2e72756e74696d652e636865636b706f696e742e436865636b706f696e745479706500000000000000010200024c00046e616d657400124c6a6176612f6c616e672f537472696e673b4c001473686172696e6746696c657353747261746567797400494c6f72672f6170616368652f666c696e6b2f72756e74696d652f636865636b706f696e742f436865636b706f696e74547970652453686172696e6746696c657353747261746567793b787074000f46756c6c20436865636b706f696e747e7200476f72672e6170616368652e666c696e6b2e72756e74696d652e636865636b706f696e742e436865636b706f696e74547970652453686172696e6746696c6573537472617465677900000000000000001200007872000e6a6176612e6c616e672e456e756d0000000000000000120000787074000a4e4f5f53484152494e47'
    .match(/../g)!
    .map((b) => parseInt(b, 16)),
);
const OP_ID = [0x67, 0x30, 0xef, 0x73, 0x75, 0xfb, 0x60, 0xf9, 0xd9, 0xbb, 0xdf, 0xdf, 0xd1, 0x74, 0xd8, 0x03];

/** One operator `6730ef73…` (p 2, max p 128) with subtask 0 holding operator state and a code-7 keyed handle. */
function buildMetadata(version: number, opts: { trailer?: boolean } = {}): Uint8Array {
  const w = new ByteWriter().u32(0x4960672d).i32(version).i64(382).i32(0).i32(1);
  if (version >= 5) w.utf('Flat Map').utf('second');
  w.bytes(OP_ID).i32(2).i32(128);
  if (version === 2)
    w.i32(1); // the unused "chain length" of V2
  else w.u8(0); // no coordinator state (V3+)
  w.i32(2);
  w.i32(0); // subtask 0
  if (version === 2) w.i64(-1).i32(0); // V2: unused "duration", no legacy task states
  w.i32(1).u8(4).i32(1).utf('_default_').u8(0).i32(1).i64(180).u8(1).utf('op-file').i32(2).bytes([0xaa, 0xbb]);
  w.i32(0); // no raw operator state
  w.u8(7).i32(0).i32(2).i64(0).i64(10).u8(6).utf('kf').i64(64);
  w.u8(0); // no raw keyed state
  if (version === 2) {
    // V2 has no channel state lists
  } else if (version >= 6) {
    w.i32(1).u8(1).i32(0).i32(0).i32(1).i32(0).i64(0).u8(0); // one input channel handle (V2 serializer)
  } else {
    w.i32(0);
  }
  if (version !== 2) w.i32(0);
  if (version >= 7) w.u8(1).i64(381);
  if (version === 2)
    w.i32(1).i64(-1).i32(0).i32(0).i32(0).u8(0).u8(0); // subtask 1, empty (V2 has no finished marker)
  else w.i32(-2); // subtask 1, finished
  if (version >= 4 && opts.trailer !== false) w.bytes(TRAILER);
  return w.finish();
}

describe('readCheckpointMetadata: versions', () => {
  for (const version of [2, 3, 4, 5, 6, 7]) {
    it(`reads a version ${version} file`, () => {
      const m = readCheckpointMetadata(buildMetadata(version));
      expect(m.version).toBe(version);
      expect(m.checkpointId).toBe(382n);
      expect(m.masterStates).toEqual([]);
      expect(m.operators).toHaveLength(1);
      const op = m.operators[0]!;
      expect(op.id).toBe('6730ef7375fb60f9d9bbdfdfd174d803');
      expect(op.name).toBe(version >= 5 ? 'Flat Map' : undefined);
      expect(op.uid).toBe(version >= 5 ? 'second' : undefined);
      expect([op.parallelism, op.maxParallelism, op.fullyFinished]).toEqual([2, 128, false]);
      const [s0, s1] = op.subtasks;
      expect(s0!.managedOperatorState?.states).toEqual([{ name: '_default_', mode: 'SPLIT_DISTRIBUTE', offsets: [180] }]);
      expect(s0!.managedOperatorState?.delegate).toMatchObject({ kind: 'inline', name: 'op-file', size: 2 });
      expect(s0!.managedKeyedState).toMatchObject({ kind: 'key-groups', code: 7, range: { start: 0, end: 1 }, offsets: [0, 10] });
      expect(s0!.inputChannelStateCount).toBe(version >= 6 ? 1 : 0);
      expect(s0!.referenceCheckpointId).toBe(version >= 7 ? 381n : undefined);
      expect(s1).toMatchObject({ index: 1, finished: version !== 2, managedKeyedState: null });
      expect(op.coordinatorState).toBeNull();
      if (version >= 4) expect(m.properties).toMatchObject({ type: 'checkpoint', name: 'Full Checkpoint', trailerSize: TRAILER.length });
      else expect(m.properties).toBeNull();
    });
  }

  it('gives the inline data its absolute offset in _metadata', () => {
    const bytes = buildMetadata(4);
    const h = readCheckpointMetadata(bytes).operators[0]!.subtasks[0]!.managedOperatorState!.delegate!;
    if (h.kind !== 'inline') throw new Error('not inline');
    expect([bytes[h.offset], bytes[h.offset + 1]]).toEqual([0xaa, 0xbb]);
  });

  it('V3 has no trailer: trailing bytes are an error', () => {
    const bytes = new Uint8Array([...buildMetadata(3), 1, 2]);
    expect(decodeErrorOf(() => readCheckpointMetadata(bytes)).message).toBe(
      `expected the end of a version 3 _metadata file after the last operator state, found 2 more bytes — at _metadata, offset ${bytes.length - 2} (0x${(bytes.length - 2).toString(16)})`,
    );
  });

  it('V4+ without the trailer is truncated', () => {
    const bytes = buildMetadata(4, { trailer: false });
    expect(decodeErrorOf(() => readCheckpointMetadata(bytes)).message).toBe(
      `expected the checkpoint properties (a Java serialization stream) after the operator states, found the end of the file — at _metadata, offset ${bytes.length} (0x${bytes.length.toString(16)}) [checkpoint properties]`,
    );
  });
});

describe('readCheckpointMetadata: header', () => {
  const withMagic = (...head: number[]) => new Uint8Array([...head, ...new Array(300).fill(0)]);

  it('rejects non-metadata files, naming what they look like', () => {
    const cases: [Uint8Array, string][] = [
      [withMagic(0x50, 0x4b, 0x03, 0x04), 'found 0x504b0304; the bytes look like a zip archive (open the archive instead of a file inside it)'],
      [withMagic(0x1f, 0x8b, 0x08, 0x00), 'found 0x1f8b0800; the bytes look like a gzip-compressed file (e.g. a .tar.gz archive)'],
      [withMagic(0xac, 0xed, 0x00, 0x05), 'found 0xaced0005; the bytes look like a Java serialization stream'],
      [
        new Uint8Array([0x0a, 0x10, 0x0a, 0x0b, ...[...'order.proto'].map((c) => c.charCodeAt(0)), 0x12, 0x01, 0x78]),
        'found 0x0a100a0b; the bytes look like a Protobuf descriptor set (FileDescriptorSet)',
      ],
      [
        new Uint8Array([...new Array(60).fill(1), 0xf7, 0xcf, 0xf4, 0x85, 0xb7, 0x41, 0xe2, 0x88]),
        'found 0x01010101; the bytes look like a RocksDB SST file (a state file of a native savepoint or checkpoint)',
      ],
    ];
    for (const [bytes, found] of cases) {
      const e = decodeErrorOf(() => readCheckpointMetadata(bytes, 'x/_metadata'));
      expect(e.code).toBe('wrong-file-kind');
      expect(e.message).toBe(`not a Flink _metadata file: expected the magic number 0x4960672d, ${found} — at x/_metadata, offset 0 (0x0)`);
    }
    const tar = new Uint8Array(1024);
    tar.set(
      [...'ustar'].map((c) => c.charCodeAt(0)),
      257,
    );
    tar[0] = 0x61;
    expect(decodeErrorOf(() => readCheckpointMetadata(tar)).message).toBe(
      'not a Flink _metadata file: expected the magic number 0x4960672d, found 0x61000000; the bytes look like a tar archive — at _metadata, offset 0 (0x0)',
    );
  });

  it('says "not recognised" for unknown bytes and for empty or tiny files', () => {
    const e = decodeErrorOf(() => readCheckpointMetadata(new Uint8Array([1, 2, 3, 4, 5])));
    expect(e.code).toBe('not-recognised');
    expect(e.message).toBe('not a Flink _metadata file: expected the magic number 0x4960672d, found 0x01020304 — at _metadata, offset 0 (0x0)');
    expect(decodeErrorOf(() => readCheckpointMetadata(new Uint8Array(0))).message).toBe(
      'not a Flink _metadata file: expected the magic number 0x4960672d, found an empty file — at _metadata, offset 0 (0x0)',
    );
    expect(decodeErrorOf(() => readCheckpointMetadata(new Uint8Array([0x49, 0x60]))).message).toBe(
      'not a Flink _metadata file: expected the magic number 0x4960672d, found only 2 bytes — at _metadata, offset 0 (0x0)',
    );
  });

  it('rejects version 1 as Flink ≤ 1.2 and other versions as unsupported', () => {
    const v = (n: number) => new ByteWriter().u32(0x4960672d).i32(n).i64(0).finish();
    const old = decodeErrorOf(() => readCheckpointMetadata(v(1)));
    expect(old.code).toBe('unsupported-version');
    expect(old.message).toBe(
      '_metadata format version 1 was written by Flink ≤ 1.2, not supported (this reader supports versions 2–7) — at _metadata, offset 4 (0x4)',
    );
    expect(decodeErrorOf(() => readCheckpointMetadata(v(8))).message).toBe(
      'unsupported _metadata format version 8: this reader supports versions 2–7 (Flink 1.3 to 2.x) — at _metadata, offset 4 (0x4)',
    );
    expect(decodeErrorOf(() => readCheckpointMetadata(v(0))).code).toBe('unsupported-version');
  });

  it('V2: a chain length other than 1 and legacy task states (Flink ≤ 1.1 Checkpointed) are named', () => {
    const head = () => new ByteWriter().u32(0x4960672d).i32(2).i64(7).i32(0).i32(1).bytes(OP_ID).i32(1).i32(1);
    const chain = head().i32(2).i32(0).finish();
    expect(decodeErrorOf(() => readCheckpointMetadata(chain)).message).toBe(
      'expected the unused chain length 1 of a version 2 operator state, found 2 (a pre-Flink-1.3 chained operator state) — at _metadata, offset 48 (0x30) [operator 6730ef73…]',
    );
    const legacy = head().i32(1).i32(1).i32(0).i64(-1).i32(1).finish();
    expect(decodeErrorOf(() => readCheckpointMetadata(legacy)).message).toBe(
      "expected 0 legacy task states in a version 2 subtask state, found 1 (state of Flink ≤ 1.1's Checkpointed interface, which Flink no longer restores) — at _metadata, offset 68 (0x44) [operator 6730ef73… / subtask 0]",
    );
  });

  it('rejects a negative checkpoint id', () => {
    const bytes = new ByteWriter().u32(0x4960672d).i32(4).i64(-1).i32(0).i32(0).finish();
    expect(decodeErrorOf(() => readCheckpointMetadata(bytes)).message).toBe('expected a non-negative checkpoint id, found -1 — at _metadata, offset 8 (0x8)');
  });
});

describe('readCheckpointMetadata: master states', () => {
  const head = () => new ByteWriter().u32(0x4960672d).i32(3).i64(1);

  it('reads version, name and data, consuming exactly L bytes', () => {
    const payload = new ByteWriter().i32(1).utf('hook').i32(3).bytes([1, 2, 3]).finish();
    const bytes = head().i32(1).u32(0xc96b1696).i32(payload.length).bytes(payload).i32(0).finish();
    expect(readCheckpointMetadata(bytes).masterStates).toEqual([{ name: 'hook', version: 1, data: new Uint8Array([1, 2, 3]) }]);
  });

  it('rejects a wrong master state magic and a payload with bytes left over', () => {
    const bad = head().i32(1).u32(0x12345678).i32(4).i32(0).i32(0).finish();
    const e = decodeErrorOf(() => readCheckpointMetadata(bad));
    expect(e.code).toBe('bad-magic');
    expect(e.message).toBe('expected master state magic number 0xc96b1696, found 0x12345678 — at _metadata, offset 20 (0x14) [master state #0]');
    const payload = new ByteWriter().i32(1).utf('h').i32(0).u8(9).finish();
    const extra = head().i32(1).u32(0xc96b1696).i32(payload.length).bytes(payload).i32(0).finish();
    expect(decodeErrorOf(() => readCheckpointMetadata(extra)).message).toBe(
      'expected the master state "h" to end after its data, found 1 more bytes inside its declared length 12 — at _metadata, offset 39 (0x27) [master state #0]',
    );
  });

  it('rejects counts larger than the bytes left before allocating', () => {
    const e = decodeErrorOf(() => readCheckpointMetadata(head().i32(1_000_000).finish()));
    expect(e.code).toBe('truncated');
    expect(e.message).toBe('expected 1000000 master states (at least 8000000 bytes), found 0 bytes left — at _metadata, offset 16 (0x10)');
    const ops = decodeErrorOf(() => readCheckpointMetadata(head().i32(0).i32(2).bytes(new Uint8Array(40)).finish()));
    expect(ops.message).toBe('expected 2 operator states (at least 58 bytes), found 40 bytes left — at _metadata, offset 20 (0x14)');
  });
});

describe('readCheckpointMetadata: operators and subtasks', () => {
  const op = (p: number, maxP: number) => new ByteWriter().u32(0x4960672d).i32(3).i64(1).i32(0).i32(1).bytes(OP_ID).i32(p).i32(maxP);

  it('reads a fully finished operator (subtask count -1)', () => {
    const m = readCheckpointMetadata(op(3, 128).u8(0).i32(-1).finish());
    expect(m.operators[0]).toEqual({
      id: '6730ef7375fb60f9d9bbdfdfd174d803',
      parallelism: 3,
      maxParallelism: 128,
      coordinatorState: null,
      fullyFinished: true,
      subtasks: [],
    });
  });

  it('rejects a coordinator state on a fully finished operator and a non-inline coordinator state', () => {
    expect(decodeErrorOf(() => readCheckpointMetadata(op(3, 128).u8(1).utf('c').i32(0).i32(-1).finish())).message).toBe(
      'expected no coordinator state for a fully finished operator (subtask count -1), found one — at _metadata, offset 48 (0x30) [operator 6730ef73…]',
    );
    expect(decodeErrorOf(() => readCheckpointMetadata(op(3, 128).u8(6).utf('c').i64(1).i32(0).finish())).message).toBe(
      'expected the coordinator state to be null or inline (code 1), found a relative-file handle — at _metadata, offset 48 (0x30) [operator 6730ef73…]',
    );
  });

  it('rejects parallelism above max parallelism, subtask indexes out of range and duplicates', () => {
    expect(decodeErrorOf(() => readCheckpointMetadata(op(5, 4).u8(0).i32(0).finish())).message).toBe(
      'expected 1 <= parallelism <= max parallelism <= 32768, found parallelism 5 and max parallelism 4 — at _metadata, offset 40 (0x28) [operator 6730ef73…]',
    );
    expect(decodeErrorOf(() => readCheckpointMetadata(op(2, 4).u8(0).i32(1).i32(-3).finish())).message).toBe(
      'expected a subtask index below the parallelism 2, found 2 (stored as -3, finished) — at _metadata, offset 53 (0x35) [operator 6730ef73…]',
    );
    expect(decodeErrorOf(() => readCheckpointMetadata(op(2, 4).u8(0).i32(2).i32(-1).i32(-1).finish())).message).toBe(
      'expected a subtask index not seen before, found 0 (stored as -1, finished) — at _metadata, offset 57 (0x39) [operator 6730ef73…]',
    );
    expect(decodeErrorOf(() => readCheckpointMetadata(op(2, 4).u8(0).i32(3).finish())).message).toBe(
      'expected at most 2 subtask states, found 3 — at _metadata, offset 49 (0x31) [operator 6730ef73…]',
    );
  });

  it('puts operator, subtask and handle kind into the path of errors inside a subtask', () => {
    const bytes = op(2, 4).u8(0).i32(1).i32(1).i32(0).i32(0).u8(7).i32(0).i32(1).i64(0).u8(99).finish();
    const e = decodeErrorOf(() => readCheckpointMetadata(bytes));
    expect(e.path).toEqual(['operator 6730ef73…', 'subtask 1', 'managed keyed state']);
    expect(e.message).toBe(
      'expected a stream state handle type code (0, 1, 2, 3, 6, 15 or 16), found 99 — at _metadata, offset 82 (0x52) [operator 6730ef73… / subtask 1 / managed keyed state]',
    );
  });

  it('rejects an operator-state presence flag other than 0/1', () => {
    const bytes = op(2, 4).u8(0).i32(1).i32(0).i32(0).i32(2).finish();
    expect(decodeErrorOf(() => readCheckpointMetadata(bytes)).message).toBe(
      'expected presence flag 0 or 1 for raw operator state, found 2 — at _metadata, offset 61 (0x3d) [operator 6730ef73… / subtask 0 / raw operator state]',
    );
  });
});

describe('readCheckpointMetadata: truncation at every byte', () => {
  for (const version of [3, 5, 7]) {
    it(`V${version}: every prefix fails with a located error, never a crash or a silent result`, () => {
      const full = buildMetadata(version);
      const end = version >= 4 ? full.length - TRAILER.length : full.length;
      for (let cut = 0; cut < end; cut++) {
        const e = decodeErrorOf(() => readCheckpointMetadata(full.subarray(0, cut)));
        expect(['truncated', 'not-recognised'], `cut ${cut}: ${e.message}`).toContain(e.code);
        expect(e.offset! <= cut, `cut ${cut}: offset ${e.offset}`).toBe(true);
        expect(e.file).toBe('_metadata');
      }
    });
  }

  it('V5: names the field and the path where the file ends', () => {
    const full = buildMetadata(5);
    const at = (cut: number) => decodeErrorOf(() => readCheckpointMetadata(full.subarray(0, cut))).message;
    const op = '[operator 6730ef73…]';
    const sub = (kind: string) => `[operator 6730ef73… / subtask 0 / ${kind}]`;
    const table: [number, string][] = [
      [6, 'expected 4 bytes for metadata format version, found 2 — at _metadata, offset 4 (0x4)'],
      [12, 'expected 8 bytes for checkpoint id, found 4 — at _metadata, offset 8 (0x8)'],
      [18, 'expected 4 bytes for number of master states, found 2 — at _metadata, offset 16 (0x10)'],
      [22, 'expected 4 bytes for number of operator states, found 2 — at _metadata, offset 20 (0x14)'],
      [30, 'expected 1 operator states (at least 33 bytes), found 6 bytes left — at _metadata, offset 20 (0x14)'],
      [60, `expected 4 bytes for operator parallelism, found 2 — at _metadata, offset 58 (0x3a) ${op}`],
      [64, `expected 4 bytes for operator max parallelism, found 2 — at _metadata, offset 62 (0x3e) ${op}`],
      [66, 'expected 1 byte for stream handle type code, found 0 — at _metadata, offset 66 (0x42) [operator 6730ef73… / coordinator state]'],
      [69, `expected 4 bytes for number of subtask states, found 2 — at _metadata, offset 67 (0x43) ${op}`],
      [77, `expected 2 subtask states (at least 8 bytes), found 6 bytes left — at _metadata, offset 67 (0x43) ${op}`],
      [79, `expected 1 byte for operator state handle type code, found 0 — at _metadata, offset 79 (0x4f) ${sub('managed operator state')}`],
      [82, `expected 4 bytes for number of operator state entries, found 2 — at _metadata, offset 80 (0x50) ${sub('managed operator state')}`],
      [90, `expected 1 operator state entries (at least 7 bytes), found 6 bytes left — at _metadata, offset 80 (0x50) ${sub('managed operator state')}`],
      [
        91,
        `expected 9 bytes for name of operator state entry #0 (9 bytes of modified UTF-8), found 5 — at _metadata, offset 86 (0x56) ${sub('managed operator state')}`,
      ],
      [95, `expected 1 byte for distribution mode of state "_default_", found 0 — at _metadata, offset 95 (0x5f) ${sub('managed operator state')}`],
      [98, `expected 4 bytes for number of offsets of state "_default_", found 2 — at _metadata, offset 96 (0x60) ${sub('managed operator state')}`],
      [104, `expected 1 offsets of state "_default_" (at least 8 bytes), found 4 bytes left — at _metadata, offset 96 (0x60) ${sub('managed operator state')}`],
      [108, `expected 1 byte for stream handle type code, found 0 — at _metadata, offset 108 (0x6c) ${sub('managed operator state')}`],
      [112, `expected 7 bytes for inline handle name (7 bytes of modified UTF-8), found 1 — at _metadata, offset 111 (0x6f) ${sub('managed operator state')}`],
      [120, `expected 4 bytes for inline handle data length, found 2 — at _metadata, offset 118 (0x76) ${sub('managed operator state')}`],
      [123, `expected 2 bytes of inline state data, found 1 — at _metadata, offset 122 (0x7a) ${sub('managed operator state')}`],
      [126, `expected 4 bytes for presence flag of raw operator state, found 2 — at _metadata, offset 124 (0x7c) ${sub('raw operator state')}`],
      [128, `expected 1 byte for keyed state handle type code, found 0 — at _metadata, offset 128 (0x80) ${sub('managed keyed state')}`],
      [131, `expected 4 bytes for start key group of key-group range, found 2 — at _metadata, offset 129 (0x81) ${sub('managed keyed state')}`],
      [140, `expected 2 key-group offsets (at least 16 bytes), found 3 bytes left — at _metadata, offset 137 (0x89) ${sub('managed keyed state')}`],
      [
        156,
        `expected 2 bytes for relative file handle path (2 bytes of modified UTF-8), found 0 — at _metadata, offset 156 (0x9c) ${sub('managed keyed state')}`,
      ],
      [160, `expected 8 bytes for relative file handle state size, found 2 — at _metadata, offset 158 (0x9e) ${sub('managed keyed state')}`],
      [166, `expected 1 byte for keyed state handle type code, found 0 — at _metadata, offset 166 (0xa6) ${sub('raw keyed state')}`],
      [169, `expected 4 bytes for number of input channel state handles, found 2 — at _metadata, offset 167 (0xa7) ${sub('input channel state')}`],
      [173, `expected 4 bytes for number of result subpartition state handles, found 2 — at _metadata, offset 171 (0xab) ${sub('result subpartition state')}`],
      [177, `expected 4 bytes for subtask index of subtask entry #1, found 2 — at _metadata, offset 175 (0xaf) ${op}`],
      [
        179,
        'expected the checkpoint properties (a Java serialization stream) after the operator states, found the end of the file — at _metadata, offset 179 (0xb3) [checkpoint properties]',
      ],
    ];
    for (const [cut, message] of table) expect(at(cut), `cut at ${cut}`).toBe(message);
  });

  it('V5: a name length past the end is reported on the operator name', () => {
    const bytes = new ByteWriter().u32(0x4960672d).i32(5).i64(1).i32(0).i32(1).u16(1000).bytes(new Uint8Array(40)).finish();
    expect(decodeErrorOf(() => readCheckpointMetadata(bytes)).message).toBe(
      'expected 1000 bytes for operator name (1000 bytes of modified UTF-8), found 40 — at _metadata, offset 26 (0x1a) [operator #0]',
    );
  });
});
