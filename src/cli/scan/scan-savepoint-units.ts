/**
 * Whole-state statistics over some subtasks of a savepoint (the work of one scan worker, or of
 * the whole scan in one thread): scanState in `frame` mode over the units, counting entries and
 * value bytes and running the Protobuf structural scan on every Protobuf value where it lies in the
 * read buffer — never the full decoder. Memory is bounded by the read buffers (reused across streams).
 */
import { scanState, StateTallies, type CancelSignal, type OpenedSavepoint, type SampleCoverage, type SnapshotRegistry } from '../../core/flink';
import { observeSourceReads, type ByteSource, type DecodeErrorJson, type SavepointFiles } from '../../core/io';
import { createProtobufStateScan, getProtobufScanIndex, type ProtobufStateScan } from '../../core/protobuf';
import { addTtlEntry, addValueSize, createStatisticsVisitor, createTtlTally, createValueSizeTally, isTtlValue } from '../../core/report';
import type { ScanPart, StateScope } from '../../core/flink';
import type { ScanOptions, ScanPosition, ScanUnit, StateStats } from './state-stats-types';

export interface UnitsScanResult {
  states: (StateStats & { at?: ScanPosition })[];
  errors: DecodeErrorJson[];
  errorsAt?: ScanPosition[];
  coverage?: SampleCoverage;
  bytesRead: number;
}

/**
 * `opened`: the savepoint as the caller opened it (stats' main thread, or a worker thread's session: each opens it
 * once; `_metadata` is not read here); `registry`: made with the scan's `kryoSchema` (createSavepointRegistry).
 */
export async function scanSavepointUnits(
  input: OpenedSavepoint,
  registry: SnapshotRegistry,
  units: readonly Pick<ScanUnit, 'operatorId' | 'subtask'>[],
  options: ScanOptions & { signal?: CancelSignal } = {},
): Promise<UnitsScanResult> {
  const counter = { bytes: 0 };
  const opened = countStateReads(input, counter);
  // a shard's scan: where the whole scan first meets each state (placePart), so a merge orders them as one scan does
  const positions = options.positions;
  let pending: ScanPosition | undefined;
  let unitAt = -1;
  let keyedParts = 0;
  // every state the headers name gets its statistics, 0 entries when it has none
  const tallies = new StateTallies<StateStats & { scan?: ProtobufStateScan; slots?: Map<number, number>; at?: ScanPosition }>((operatorId, state, scope) => ({
    operatorId,
    state,
    scope,
    entries: 0,
    valueBytes: 0,
    ...(pending === undefined ? {} : { at: pending }),
  }));
  const errors: DecodeErrorJson[] = [];
  const errorsAt: ScanPosition[] = [];
  const unitOf = (operatorId: string, subtask: number): number => {
    const u = positions?.get(`${operatorId}\u0000${subtask}`) ?? -1;
    if (u !== unitAt) {
      unitAt = u;
      keyedParts = 0;
    }
    return u;
  };
  /** The part's states made in order, each with its place in the whole scan. */
  const placePart = (part: ScanPart): void => {
    if (positions === undefined) return;
    const u = unitOf(part.operator.id, part.subtask);
    const p = part.kind === 'operator' ? 0 : ++keyedParts;
    const scope = part.kind === 'keyed' ? 'keyed' : 'operator';
    const names: [string, StateScope][] = [
      ...part.states.map((n): [string, StateScope] => [n, scope]),
      ...part.broadcastStates.map((n): [string, StateScope] => [n, 'broadcast']),
    ];
    names.forEach(([name, sc], i) => {
      pending = [u, p, i];
      tallies.get(part.operator.id, name, sc);
    });
    pending = undefined;
  };
  const statistics = createStatisticsVisitor<StateStats & { scan?: ProtobufStateScan; slots?: Map<number, number> }>({
    admit(part, state, subtask, keyGroup, valueBytes, key) {
      const t = tallies.ofEntry(part, state);
      t.entries++;
      t.valueBytes += valueBytes;
      // the largest values and the bytes per key group (operator state: no key group)
      addValueSize((t.valueSizes ??= createValueSizeTally()), (t.slots ??= new Map()), part.kind === 'keyed' ? keyGroup : -1, subtask, valueBytes, key);
      return t;
    },
    protobuf(t, f, key) {
      const content = f.codec.content;
      t.scan ??= createProtobufStateScan(getProtobufScanIndex(content.schema.root), {
        maxMessageSize: content.settings.maxMessageSize,
        recursionLimit: content.settings.recursionLimit,
        root: content.schema.root,
        ...(options.newLimits ? { newLimits: options.newLimits } : {}),
      });
      t.scan.addPayloadRange(f.bytes, f.payloadStart, f.end, key, f.length);
    },
    // a state with time-to-live: its values' last-access times (and, given a TTL and a time, which had expired)
    value(t, v) {
      if (v !== null && isTtlValue(v)) addTtlEntry((t.ttl ??= createTtlTally(options.ttlExpiry)), v, options.ttlExpiry);
    },
  });
  const covered = await scanState(
    opened,
    registry,
    {
      units,
      broadcastCopies: 'counted',
      ...(options.sample ? { sample: options.sample } : {}),
      ...(options.keyGroupRange ? { keyGroupRange: options.keyGroupRange } : {}),
      ...(options.operatorState === undefined ? {} : { operatorState: options.operatorState }),
    },
    {
      part(part) {
        placePart(part);
        tallies.startPart(part);
        if (part.incomplete !== undefined)
          for (const name of part.states) tallies.get(part.operator.id, name, part.kind === 'keyed' ? 'keyed' : 'operator').partly ??= part.incomplete;
      },
      ...statistics,
      streamError(e, where) {
        errors.push(e.toJSON());
        if (positions !== undefined) errorsAt.push([unitOf(where.operator.id, where.subtask), where.kind === 'operator' ? 0 : 1, 0]);
      },
      // a part that cannot be read (a RocksDB native handle without meta data, missing SST files, …): its states are listed as not read, with the reason
      unreadable(part, reason) {
        placePart(part);
        for (const name of part.states) tallies.get(part.operator.id, name, 'keyed').notRead = reason;
      },
    },
    // one set of read buffers for every keyed stream of the scan (read one after the other)
    { values: { mode: 'frame' }, reuseReadBuffers: true, ...(options.signal ? { signal: options.signal } : {}) },
  );
  const coverage: SampleCoverage | undefined = options.sample
    ? { sample: options.sample, keyGroupsRead: covered.keyGroupsRead, keyGroupsWithData: covered.keyGroupsWithData }
    : undefined;
  const states = [...tallies.byState.values()].map(({ scan, slots: _slots, ...st }) => (scan ? { ...st, protobuf: scan.finish() } : st));
  return { states, errors, ...(positions ? { errorsAt } : {}), ...(coverage ? { coverage } : {}), bytesRead: counter.bytes };
}

/**
 * The opened savepoint with its state reads counted: every stream a handle resolves to (a state file,
 * a segment of one, or state inline in `_metadata`: read whole when it was opened, what the scan reads of
 * it is state read), and the files reached by name. The reads of `_metadata` itself are not counted.
 */
function countStateReads(opened: OpenedSavepoint, counter: { bytes: number }): OpenedSavepoint {
  return {
    ...opened,
    files: countStateFileReads(opened.files, counter),
    resolveStreamHandle(handle, context) {
      const resolved = opened.resolveStreamHandle(handle, context);
      return { ...resolved, source: countReads(resolved.source, counter) };
    },
  };
}

function countReads(src: ByteSource, counter: { bytes: number }): ByteSource {
  return observeSourceReads(src, { onRead: (bytes) => void (counter.bytes += bytes) });
}

/** The input with its state-file reads counted (the reads of `_metadata` itself are not). */
function countStateFileReads(input: SavepointFiles, counter: { bytes: number }): SavepointFiles {
  const wrap = (src: ByteSource) => countReads(src, counter);
  const cache = new Map<string, ByteSource>();
  return {
    ...input,
    resolveRelative(path) {
      const src = input.resolveRelative(path);
      if (!src) return undefined;
      let w = cache.get(path);
      if (!w) cache.set(path, (w = wrap(src)));
      return w;
    },
    resolveAbsolute(absolutePath, recordedSize) {
      const found = input.resolveAbsolute?.(absolutePath, recordedSize);
      if (!found) return undefined;
      const key = `\u0000${found.path}`;
      let w = cache.get(key);
      if (!w) cache.set(key, (w = wrap(found.source)));
      return { ...found, source: w };
    },
  };
}
