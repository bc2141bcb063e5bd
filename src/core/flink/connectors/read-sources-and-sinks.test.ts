import { describe, expect, it } from 'vitest';
import { ByteWriter } from '../../io';
import { buildSinkView, buildSourceView, type Element, type OperatorRef } from './read-sources-and-sinks';

const REF: OperatorRef = { operatorId: 'a'.repeat(32), uid: null, name: null, parallelism: 2 };

/** SimpleVersionedSerialization's envelope around `payload` (length as given, default the payload's). */
function envelope(version: number, payload: Uint8Array, length = payload.length): Uint8Array {
  return new ByteWriter().i32(version).i32(length).bytes(payload).finish();
}

function kafkaSplit(topic: string, partition: number, starting: bigint, stopping: bigint): Uint8Array {
  return new ByteWriter().utf(topic).i32(partition).i64(starting).i64(stopping).finish();
}

function element(subtask: number, index: number, bytes: Uint8Array): Element {
  return { subtask, index, bytes, file: 'state', offset: 100 };
}

/** SourceCoordinator serde v1 + KafkaSourceEnumStateSerializer v2 of the given (topic, partition, status). */
function coordinator(
  partitions: [string, number, number][],
  discovered = true,
): { kind: 'inline'; name: string; size: number; offset: number; data: Uint8Array } {
  const e = new ByteWriter().i32(partitions.length);
  for (const [t, p, s] of partitions) e.utf(t).i32(p).i32(s);
  const enumBytes = e.bool(discovered).finish();
  const data = new ByteWriter().i32(1).i32(2).i32(enumBytes.length).bytes(enumBytes).finish();
  return { kind: 'inline', name: 'coordinator', size: data.length, offset: 40, data };
}

describe('buildSourceView: Kafka splits and the enumerator', () => {
  it('decodes splits (markers and no stopping offset) and the enumerator', () => {
    const v = buildSourceView(
      REF,
      [element(0, 0, envelope(0, kafkaSplit('t', 1, 7n, -(2n ** 63n)))), element(1, 0, envelope(0, kafkaSplit('t', 0, -2n, 50n)))],
      coordinator([
        ['t', 1, 0],
        ['t', 0, 0],
        ['u', 0, 1],
      ]),
      [],
    )!;
    expect(v.connector).toBe('kafka');
    expect(v.problems).toEqual([]);
    expect(v.splits).toEqual([
      { topic: 't', partition: 1, subtask: 0, startingOffset: '7', stoppingOffset: null },
      { topic: 't', partition: 0, subtask: 1, startingOffset: '-2', startingOffsetMarker: 'earliest', stoppingOffset: '50' },
    ]);
    expect(v.enumerator).toEqual({
      coordinatorSerdeVersion: 1,
      enumStateVersion: 2,
      assignedPartitions: [
        { topic: 't', partition: 0 },
        { topic: 't', partition: 1 },
      ],
      unassignedInitialPartitions: [{ topic: 'u', partition: 0 }],
      initialDiscoveryFinished: true,
    });
  });

  it('a split of a Kafka source that ends early is corrupt, with the exact message', () => {
    const good = element(0, 0, envelope(0, kafkaSplit('orders', 0, 4n, 50n)));
    const short = kafkaSplit('orders', 1, 7n, 60n).subarray(0, 20);
    const v = buildSourceView(REF, [good, element(1, 0, envelope(0, short))], undefined, [])!;
    expect(v.connector).toBe('kafka');
    expect(v.splits).toHaveLength(1);
    expect(v.problems.map((p) => [p.kind, p.state, p.subtask, p.element])).toEqual([['corrupt', 'SourceReaderState', 1, 0]]);
    expect(v.problems[0]!.message).toBe(
      'split #0 of subtask 1: expected 8 bytes for stopping offset of the Kafka split, found 0 — at state, offset 128 (0x80)',
    );
  });

  it('a split whose starting offset is no offset and no marker is corrupt', () => {
    const v = buildSourceView(REF, [element(0, 0, envelope(0, kafkaSplit('orders', 2, -7n, 70n)))], coordinator([['orders', 2, 0]]), [])!;
    expect(v.problems.map((p) => p.kind)).toEqual(['corrupt']);
    expect(v.problems[0]!.message).toContain(
      'expected a starting offset ≥ 0 or a marker (-1 latest, -2 earliest, -3 committed) in the Kafka split of orders-2, found -7',
    );
  });

  it('an envelope whose length does not fill its element is corrupt', () => {
    const v = buildSourceView(REF, [element(0, 0, envelope(0, kafkaSplit('orders', 0, 1n, 2n), 99))], coordinator([['orders', 0, 0]]), [])!;
    expect(v.problems.map((p) => p.kind)).toEqual(['corrupt']);
    expect(v.problems[0]!.message).toBe(
      'expected split #0 of subtask 0 to fill its 28-byte element after version and length, found length 99 — at state, offset 104 (0x68)',
    );
  });

  it("another connector's splits are not recognised, not corrupt", () => {
    const fileSplit = new ByteWriter().utf('split-0').utf('/data/file-0.csv').i64(0n).i64(1024n).i32(0).finish();
    const v = buildSourceView(REF, [element(0, 0, envelope(3, fileSplit))], undefined, [])!;
    expect(v.connector).toBe('not-recognised');
    expect(v.splits).toEqual([]);
    expect(v.problems.map((p) => p.kind)).toEqual(['not-recognised']);
    expect(v.problems[0]!.message).toBe(
      `split #0 of subtask 0 (split serializer version 3, ${fileSplit.length} bytes) is not a Kafka split (expected version 0: UTF topic, int32 partition, two int64 offsets): a source this reader does not decode`,
    );
  });

  it('a Kafka split in a serializer version this reader does not know is named as such', () => {
    const v = buildSourceView(REF, [element(0, 0, envelope(1, kafkaSplit('orders', 0, 1n, 2n)))], coordinator([['orders', 0, 0]]), [])!;
    expect(v.problems.map((p) => p.kind)).toEqual(['unsupported-version']);
    expect(v.problems[0]!.message).toContain('expected KafkaPartitionSplitSerializer version 0, found version 1');
  });

  it('a corrupt enumerator of a Kafka source is corrupt; an operator with neither is not a source', () => {
    const bad = coordinator([['orders', 0, 5]]);
    const v = buildSourceView(REF, [element(0, 0, envelope(0, kafkaSplit('orders', 0, 1n, 2n)))], bad, [])!;
    expect(v.problems.map((p) => [p.kind, p.state])).toEqual([['corrupt', 'coordinator state']]);
    expect(v.problems[0]!.message).toContain('expected assignment status 0 (assigned) or 1 (unassigned initial) of orders-0, found 5');
    const notSource = { ...bad, data: new ByteWriter().i32(42).finish() };
    expect(buildSourceView(REF, [], notSource, [])).toBeUndefined();
  });
});

describe('buildSinkView: KafkaWriterState', () => {
  it('decodes version 1 and 2 writer states (v2 as connector 4.0.x/5.0.x write it: owned subtask, their number, ownership, precommitted ids)', () => {
    const v1 = new ByteWriter().utf('tx').finish();
    const v2 = new ByteWriter().utf('tx').i32(1).i32(2).i32(1).i32(1).utf('tx-1-3').i64(3n).finish();
    const v = buildSinkView(REF, [element(0, 0, envelope(1, v1)), element(1, 0, envelope(2, v2))], undefined, []);
    expect(v.connector).toBe('kafka');
    expect(v.problems).toEqual([]);
    expect(v.writers).toEqual([
      { subtask: 0, stateVersion: 1, transactionalIdPrefix: 'tx', ongoingTransactions: [] },
      {
        subtask: 1,
        stateVersion: 2,
        transactionalIdPrefix: 'tx',
        ownedSubtaskId: 1,
        totalNumberOfOwnedSubtasks: 2,
        transactionOwnership: 'explicit-by-writer-state',
        ongoingTransactions: [{ transactionalId: 'tx-1-3', checkpointId: '3' }],
      },
    ]);
  });

  it('a version 2 writer state with an unknown ownership is corrupt beside a Kafka one, with the exact message', () => {
    const good = element(0, 0, envelope(1, new ByteWriter().utf('tx').finish()));
    const bad = element(1, 0, envelope(2, new ByteWriter().utf('tx').i32(1).i32(2).i32(7).i32(0).finish()));
    const v = buildSinkView(REF, [good, bad], undefined, []);
    expect(v.problems.map((p) => p.kind)).toEqual(['corrupt']);
    expect(v.problems[0]!.message).toBe(
      'writer state #0 of subtask 1: expected transaction ownership 0 (implicit by subtask id) or 1 (explicit by writer state), found 7 — at state, offset 120 (0x78)',
    );
  });

  it('a writer state with bytes left over beside a Kafka one is corrupt; a lone unknown one is not recognised', () => {
    const good = element(0, 0, envelope(1, new ByteWriter().utf('tx').finish()));
    const extra = element(1, 0, envelope(1, new ByteWriter().utf('tx').u8(7).finish()));
    const v = buildSinkView(REF, [good, extra], undefined, []);
    expect(v.problems.map((p) => p.kind)).toEqual(['corrupt']);
    expect(v.problems[0]!.message).toContain('expected the Kafka writer state (version 1) to end here, found 1 more bytes');
    const lone = buildSinkView(REF, [extra], undefined, []);
    expect(lone.connector).toBe('not-recognised');
    expect(lone.problems.map((p) => p.kind)).toEqual(['not-recognised']);
  });
});

/** A KafkaCommittable v1 in a commit request (v0): envelope, retries, state. */
function request(epoch: number, producerId: bigint, id: string, state = 0, version = 1): Uint8Array {
  const c = new ByteWriter().i16(epoch).i64(producerId).utf(id).finish();
  return new ByteWriter().i32(version).i32(c.length).bytes(c).i32(0).i32(state).finish();
}

/** SimpleVersionedSerialization's list: version, count, (length, bytes)*. */
function list(version: number, items: Uint8Array[]): Uint8Array {
  const w = new ByteWriter().i32(version).i32(items.length);
  for (const it of items) w.i32(it.length).bytes(it);
  return w.finish();
}

/** A CommittableCollector v2 of one checkpoint: Flink 1.20's layout (checkpoint v1, subtask v1) or Flink 2.x's (subtask v2). */
function collector(flink: '1.20' | '2.x', checkpointId: bigint, subtaskId: number, requests: Uint8Array[]): Uint8Array {
  const sub = new ByteWriter().i32(subtaskId).bytes(list(0, requests)).i32(requests.length);
  const subtask = (flink === '1.20' ? sub.i32(0).i32(0) : sub.i32(0)).finish();
  const checkpoint = new ByteWriter()
    .i64(checkpointId)
    .i32(2)
    .bytes(list(flink === '1.20' ? 1 : 2, [subtask]))
    .finish();
  return new ByteWriter()
    .i32(0xb91f252c | 0)
    .bytes(list(1, [checkpoint]))
    .finish();
}

describe('buildSinkView: the committer state (pending KafkaCommittables)', () => {
  it("decodes Flink 1.20's and Flink 2.x's committer layouts: transactional id, producer id, epoch per subtask", () => {
    const v = buildSinkView(
      REF,
      [],
      [
        element(1, 0, envelope(2, collector('2.x', 4n, 1, [request(3, 1001n, 'tx-1-4')]))),
        element(0, 0, envelope(2, collector('1.20', 4n, 0, [request(0, 7n, 'tx-0-4'), request(2, 8n, 'tx-0-5', 1)]))),
      ],
      [],
    );
    expect(v.connector).toBe('committer');
    expect(v.problems).toEqual([]);
    expect(v.pendingTransactions).toEqual([
      { subtask: 0, recordedSubtaskId: 0, checkpointId: '4', transactionalId: 'tx-0-4', producerId: '7', epoch: 0, state: 'received', retries: 0 },
      { subtask: 0, recordedSubtaskId: 0, checkpointId: '4', transactionalId: 'tx-0-5', producerId: '8', epoch: 2, state: 'retry', retries: 0 },
      { subtask: 1, recordedSubtaskId: 1, checkpointId: '4', transactionalId: 'tx-1-4', producerId: '1001', epoch: 3, state: 'received', retries: 0 },
    ]);
  });

  it('a committer state with a wrong magic number is corrupt, with the exact message', () => {
    const bytes = collector('2.x', 4n, 1, [request(3, 1001n, 'tx-1-4')]);
    bytes[0] = 0;
    const v = buildSinkView(REF, [], [element(1, 0, envelope(2, bytes))], []);
    expect(v.pendingTransactions).toEqual([]);
    expect(v.problems.map((p) => [p.kind, p.state, p.subtask])).toEqual([['corrupt', 'streaming_committer_raw_states', 1]]);
    expect(v.problems[0]!.message).toBe(
      "committer state #0 of subtask 1: expected the committer state's magic number B91F252C, found 001F252C — at state, offset 108 (0x6c)",
    );
  });

  it("another sink's committables are not recognised; the Sink V1 layout (version 1) is an unsupported version", () => {
    const foreign = new ByteWriter()
      .i32(3)
      .i32(5)
      .bytes(new Uint8Array([1, 2, 3, 4, 5]))
      .i32(0)
      .i32(0)
      .finish();
    const v = buildSinkView(REF, [], [element(0, 0, envelope(2, collector('2.x', 1n, 0, [foreign])))], []);
    expect(v.problems.map((p) => p.kind)).toEqual(['not-recognised']);
    expect(v.problems[0]!.message).toBe(
      'committer state #0 of subtask 0: 1 of 1 committables (serializer version 3, 5 bytes) are not KafkaCommittables (expected version 1: int16 epoch, int64 producer id, UTF transactional id): not decoded',
    );
    const legacy = buildSinkView(REF, [], [element(0, 0, envelope(1, new ByteWriter().i32(0).finish()))], []);
    expect(legacy.problems.map((p) => p.kind)).toEqual(['unsupported-version']);
    expect(legacy.problems[0]!.message).toContain(
      'expected CommittableCollectorSerializer version 2, found version 1 (the Sink V1 committer state of Flink ≤ 1.14)',
    );
  });
});

describe('buildSourceView: the connector 5.0 enumerator state (version 3: whole splits)', () => {
  it('decodes the assigned and unassigned partitions from the splits, and each split with its offsets and status', () => {
    const e = new ByteWriter().i32(2).i32(0);
    for (const [p, status, start] of [
      [1, 0, 5n],
      [0, 1, -2n],
    ] as const) {
      const split = kafkaSplit('orders', p, start, 70n);
      e.i32(split.length).bytes(split).i32(status);
    }
    const enumBytes = e.bool(true).finish();
    const data = new ByteWriter().i32(1).i32(3).i32(enumBytes.length).bytes(enumBytes).finish();
    const v = buildSourceView(REF, [], { kind: 'inline', name: 'coordinator', size: data.length, offset: 40, data }, [])!;
    expect(v.problems).toEqual([]);
    expect(v.enumerator).toEqual({
      coordinatorSerdeVersion: 1,
      enumStateVersion: 3,
      assignedPartitions: [{ topic: 'orders', partition: 1 }],
      unassignedInitialPartitions: [{ topic: 'orders', partition: 0 }],
      initialDiscoveryFinished: true,
      splits: [
        { topic: 'orders', partition: 0, status: 'unassigned-initial', startingOffset: '-2', startingOffsetMarker: 'earliest', stoppingOffset: '70' },
        { topic: 'orders', partition: 1, status: 'assigned', startingOffset: '5', stoppingOffset: '70' },
      ],
    });
  });
});
