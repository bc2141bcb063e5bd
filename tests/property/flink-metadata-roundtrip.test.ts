/**
 * Property: any `_metadata` model (versions 2–7, every stream/keyed/operator/channel handle code
 * except the in-memory changelog 9, which has its own byte-level test) written with
 * writeCheckpointMetadata reads back to the same model.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCheckpointMetadata } from '../../src/core/flink/metadata/read-checkpoint-metadata';
import type {
  ChannelStateHandle,
  KeyedStateHandle,
  OperatorState,
  OperatorStateHandle,
  StreamHandle,
  SubtaskState,
} from '../../src/core/flink/metadata/metadata-types';
import { writeCheckpointMetadata } from '../../src/core/flink/metadata/write-checkpoint-metadata';

const TRAILER_CHECKPOINT = Uint8Array.from(
  // a minimal Java serialization stream: a CheckpointProperties object whose checkpointType is null
  (
    'aced0005737200386f72672e6170616368652e666c696e6b2e72756e74696d652e636865636b706f696e742e436865636b706f696e7450726f706572746965730000000000000002020001' +
    '4c000e636865636b706f696e74547970657400124c6a6176612f6c616e672f4f626a6563743b787070'
  )
    .match(/../g)!
    .map((b) => parseInt(b, 16)),
);

const text = fc.string({ maxLength: 12 });
const size = fc.integer({ min: -1, max: 1_000_000 });
const nonNegative = fc.integer({ min: 0, max: 2 ** 40 });
const big = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });

const leafStream: fc.Arbitrary<StreamHandle> = fc.oneof(
  fc.uint8Array({ maxLength: 8 }).chain((data) => text.map((name): StreamHandle => ({ kind: 'inline', name, size: data.length, offset: 0, data }))),
  fc.record({ kind: fc.constant('file' as const), path: text, size }),
  fc.record({ kind: fc.constant('relative-file' as const), relativePath: text, size }),
  fc.record({
    kind: fc.constant('segment-file' as const),
    physicalPath: text,
    logicalFileId: text,
    start: nonNegative,
    size: nonNegative,
    scope: fc.constantFrom('EXCLUSIVE' as const, 'SHARED' as const),
  }),
  fc.constant<StreamHandle>({ kind: 'empty-segment' }),
);
const range = fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 6 })).map(([start, n]) => ({ start, end: start + n - 1 }));
/**
 * `n` offsets of one handle: the reader refuses a handle that names an offset twice (0 excepted for
 * key groups), so each is made distinct by its index in the low bits (at most 16 per handle).
 */
const ownOffsets = (n: number) => fc.array(nonNegative, { minLength: n, maxLength: n }).map((os) => os.map((o, i) => o * 16 + i));
const streamHandle: fc.Arbitrary<StreamHandle | null> = fc.oneof(
  fc.constant(null),
  leafStream,
  range.chain((r) =>
    fc.record({
      kind: fc.constant('legacy-key-groups' as const),
      range: fc.constant(r),
      offsets: ownOffsets(r.end - r.start + 1),
      delegate: fc.option(leafStream, { nil: null }),
    }),
  ),
);
const fileList = fc.array(fc.record({ localPath: text, handle: streamHandle }), { maxLength: 3 });

const keyGroupsHandle: fc.Arbitrary<KeyedStateHandle> = fc.tuple(range, fc.constantFrom(3 as const, 7 as const, 12 as const)).chain(([r, code]) =>
  fc.record({
    kind: fc.constant('key-groups' as const),
    code: fc.constant(code),
    range: fc.constant(r),
    offsets: ownOffsets(r.end - r.start + 1),
    delegate: streamHandle,
    ...(code === 12 ? { handleId: text } : {}),
  }),
);
const incrementalHandle: fc.Arbitrary<KeyedStateHandle> = fc.constantFrom(5 as const, 11 as const).chain((code) =>
  fc.record({
    kind: fc.constant('incremental' as const),
    code: fc.constant(code),
    checkpointId: big,
    backendId: text,
    range,
    metaData: streamHandle,
    sharedFiles: fileList,
    privateFiles: fileList,
    ...(code === 11 ? { checkpointedSize: big, handleId: text } : {}),
  }),
);
const fileChangelog: fc.Arbitrary<KeyedStateHandle> = fc.constantFrom(10 as const, 13 as const).chain((code) =>
  fc.record({
    kind: fc.constant('changelog' as const),
    code: fc.constant(code),
    range,
    description: fc.constant(''),
    nested: fc.constant<KeyedStateHandle[]>([]),
    files: fc.array(fc.record({ offset: nonNegative, handle: streamHandle }), { maxLength: 3 }),
    stateSize: big,
    checkpointedSize: big,
    handleId: text,
    storageIdentifier: code === 13 ? text : fc.constant('filesystem'),
  }),
);
const backendChangelog: fc.Arbitrary<KeyedStateHandle> = fc
  .tuple(
    fc.constantFrom(8 as const, 14 as const),
    fc.array(fc.oneof(keyGroupsHandle, incrementalHandle), { maxLength: 2 }),
    fc.array(fileChangelog, { maxLength: 2 }),
    big,
    big,
  )
  .chain(([code, materialized, rest, materializationId, checkpointId]) =>
    fc.record({
      kind: fc.constant('changelog' as const),
      code: fc.constant(code),
      range,
      description: fc.constant(''),
      nested: fc.constant<KeyedStateHandle[]>([...materialized, ...rest]),
      checkpointedSize: big,
      materializedCount: fc.constant(materialized.length),
      materializationId: fc.constant(materializationId),
      checkpointId: fc.constant(code === 8 ? materializationId : checkpointId),
      handleId: text,
    }),
  );
const keyedHandle: fc.Arbitrary<KeyedStateHandle | null> = fc.oneof(fc.constant(null), keyGroupsHandle, incrementalHandle, fileChangelog, backendChangelog);

const operatorHandle: fc.Arbitrary<OperatorStateHandle | null> = fc.oneof(
  fc.constant(null),
  fc.record({
    kind: fc.constant('operator' as const),
    code: fc.constant(4 as const),
    // offsets distinct across the states of the handle (state j, element k: index 3j + k)
    states: fc
      .array(
        fc.record({
          name: text,
          mode: fc.constantFrom('SPLIT_DISTRIBUTE' as const, 'UNION' as const, 'BROADCAST' as const),
          offsets: fc.array(nonNegative, { maxLength: 3 }),
        }),
        { maxLength: 3 },
      )
      .map((states) => states.map((e, j) => ({ ...e, offsets: e.offsets.map((o, k) => o * 16 + 3 * j + k) }))),
    delegate: streamHandle,
  }),
  fc.record({
    kind: fc.constant('operator' as const),
    code: fc.constant(17 as const),
    states: fc.constant<OperatorStateHandle['states']>([]),
    delegate: fc.oneof(
      leafStream.filter((h) => h.kind === 'segment-file'),
      fc.constant<StreamHandle>({ kind: 'empty-segment' }),
    ),
    taskOwnedDirectory: text,
    sharedDirectory: text,
    emptyPlaceholder: fc.boolean(),
  }),
);

function channelHandle(version: number, input: boolean): fc.Arbitrary<ChannelStateHandle> {
  const v1 = fc.record({
    kind: fc.constant(input ? ('input-channel' as const) : ('result-subpartition' as const)),
    subtaskIndex: fc.nat(9),
    info: fc.tuple(fc.nat(9), fc.nat(9)),
    offsets: fc.array(nonNegative, { maxLength: 2 }),
    stateSize: big,
    delegate: streamHandle,
  });
  if (version < 6) return v1;
  const merged = fc.record({
    kind: fc.constant(input ? ('merged-input-channel' as const) : ('merged-result-subpartition' as const)),
    subtaskIndex: fc.nat(9),
    stateSize: big,
    delegate: streamHandle,
    serializedOffsetsLength: fc.nat(4),
  });
  return fc.oneof(v1, merged);
}

function subtaskState(version: number, index: number): fc.Arbitrary<SubtaskState> {
  const finished: SubtaskState = {
    index,
    finished: true,
    managedOperatorState: null,
    rawOperatorState: null,
    managedKeyedState: null,
    rawKeyedState: null,
    inputChannelStateCount: 0,
    resultSubpartitionStateCount: 0,
  };
  const running = fc
    .record({
      mo: operatorHandle,
      ro: operatorHandle,
      mk: keyedHandle,
      rk: keyedHandle,
      // V2 (Flink 1.3–1.10) has no channel state
      inputs: version === 2 ? fc.constant<ChannelStateHandle[]>([]) : fc.array(channelHandle(version, true), { maxLength: 1 }),
      outputs: version === 2 ? fc.constant<ChannelStateHandle[]>([]) : fc.array(channelHandle(version, false), { maxLength: 1 }),
      ref: fc.option(big, { nil: undefined }),
    })
    .map(({ mo, ro, mk, rk, inputs, outputs, ref }): SubtaskState => ({
      index,
      finished: false,
      managedOperatorState: mo,
      rawOperatorState: ro,
      managedKeyedState: mk,
      rawKeyedState: rk,
      inputChannelStateCount: inputs.length,
      resultSubpartitionStateCount: outputs.length,
      inputChannelStates: inputs,
      resultSubpartitionStates: outputs,
      ...(version >= 7 && ref !== undefined ? { referenceCheckpointId: ref } : {}),
    }));
  // V2 has no finished-subtask marker
  return version === 2 ? running : fc.oneof({ weight: 1, arbitrary: fc.constant(finished) }, { weight: 4, arbitrary: running });
}

function operatorState(version: number): fc.Arbitrary<OperatorState> {
  return fc
    .record({
      id: fc.uint8Array({ minLength: 16, maxLength: 16 }),
      parallelism: fc.integer({ min: 1, max: 4 }),
      extra: fc.nat(200),
      name: text,
      uid: text,
      finished: fc.boolean(),
      coordinator: fc.option(
        leafStream.filter((h) => h.kind === 'inline'),
        { nil: null },
      ),
    })
    .chain(({ id, parallelism, extra, name, uid, finished, coordinator }) =>
      fc.subarray([...Array(parallelism).keys()]).chain((indexes) =>
        fc.tuple(...indexes.map((i) => subtaskState(version, i))).map((subtasks): OperatorState => {
          const op: OperatorState = {
            id: [...id].map((b) => b.toString(16).padStart(2, '0')).join(''),
            parallelism,
            maxParallelism: parallelism + extra,
            // V2 has neither coordinator state nor fully finished operators
            coordinatorState: finished || version === 2 ? null : coordinator,
            fullyFinished: finished && version !== 2,
            subtasks: finished && version !== 2 ? [] : subtasks,
          };
          if (version >= 5 && name) op.name = name;
          if (version >= 5 && uid) op.uid = uid;
          return op;
        }),
      ),
    );
}

/** The reader fills in inline offsets, path offsets and changelog descriptions; compare without them. */
function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalize);
  if (v instanceof Uint8Array) return [...v];
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if ((k === 'offset' && (v as { kind?: string }).kind === 'inline') || k === 'pathOffset' || k === 'description') continue;
    if (k === 'changes' && x === undefined) continue;
    out[k] = normalize(x);
  }
  return out;
}

describe('writeCheckpointMetadata → readCheckpointMetadata', () => {
  for (const version of [2, 3, 4, 5, 6, 7]) {
    it(`round-trips random V${version} models`, () => {
      fc.assert(
        fc.property(
          fc.array(operatorState(version), { maxLength: 3 }),
          big.filter((b) => b >= 0n),
          (operators, checkpointId) => {
            const bytes = writeCheckpointMetadata({ version, checkpointId, operators, ...(version >= 4 ? { trailer: TRAILER_CHECKPOINT } : {}) });
            const m = readCheckpointMetadata(bytes);
            expect(m.version).toBe(version);
            expect(m.checkpointId).toBe(checkpointId);
            expect(normalize(m.operators)).toEqual(normalize(operators));
            if (version >= 4) expect(m.properties?.warning).toBe('checkpoint properties without a checkpointType object (found null)');
          },
        ),
        { numRuns: 150, seed: 4242 + version },
      );
    });
  }
});
