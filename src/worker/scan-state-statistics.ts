/**
 * One pass over a state (or a sample of it) with scanState in `frame` mode: entry counts per key group
 * and subtask, the Protobuf statistics (accumulate-protobuf-stats), and the entry index the values
 * table pages with (one record per key group: where its entries start in the state's numbering).
 * No entry, value or frame is kept: memory is O(key groups + histogram + examples), and for a TTL state
 * O(MAX_TTL_BUCKETS) of access times (core/report's TtlAccessCounter).
 */
import { checkStateSample, scanState, type CancelSignal, type OpenedSavepoint, type SnapshotRegistry, type StateSample, type StateScope } from '../core/flink';
import {
  addTtlEntry,
  addValueSize,
  createStatisticsVisitor,
  createTtlTally,
  createValueSizeTally,
  finishValueSizes,
  isTtlValue,
  TtlAccessCounter,
  type TtlTally,
} from '../core/report';
import { ProtobufStatsAccumulator } from './accumulate-protobuf-stats';
import type { DistributionBucket, StateStatsDetail } from './inspector';
import { isCountedOperatorPart } from './is-counted-operator-part';
import { requireOperator } from './require-operator';

/** Where the entries of one part (a subtask's operator state, or one key group of a subtask) start. */
export interface IndexedPart {
  subtask: number;
  /** -1: the subtask's operator-state entries */
  keyGroup: number;
  /** index of the part's first entry in the state's numbering */
  first: number;
  count: number;
}

export interface StateEntryIndex {
  total: number;
  /** in entry order; `first` ascending */
  parts: IndexedPart[];
}

export interface ScannedState {
  stats: StateStatsDetail;
  index: StateEntryIndex;
}

export async function scanStateStatistics(
  opened: OpenedSavepoint,
  registry: SnapshotRegistry,
  query: { operatorId: string; state: string; sample?: StateSample },
  options: {
    signal: CancelSignal;
    bytesRead: () => number;
    /** false: decode every entry (the reference the in-place read is tested against) */ readInPlace?: boolean;
  },
): Promise<ScannedState> {
  if (query.sample) checkStateSample(query.sample);
  const op = requireOperator(opened, query.operatorId);
  const limit = query.sample?.kind === 'first-entries' ? query.sample.count : Infinity;
  const byKeyGroup = new Map<number, DistributionBucket>();
  const bySubtask = new Map<number, DistributionBucket>();
  const proto = new ProtobufStatsAccumulator();
  const parts: IndexedPart[] = [];
  let total = 0;
  /** entries counted by the statistics: one copy of a broadcast state (as the CLI's stats), `total` lists every copy */
  let counted = 0;
  let limited = false;
  let current: IndexedPart | undefined;
  /** whether the current part's entries count in the statistics (false: a broadcast copy that is listed only) */
  let partCounted = true;
  /** the state's scope (keyed, operator or broadcast), from the first part that holds it */
  let scope: StateScope = 'keyed';
  let scoped = false;
  /** bytes of the counted entries' values */
  let valueBytes = 0;
  // the largest values and the value bytes per key group: the tally `stats` keeps (core/report), so the app names what the CLI names
  const valueSizes = createValueSizeTally();
  const valueSizeSlots = new Map<number, number>();
  // a state with time-to-live: the TTL tally `stats` keeps, and its values' access times (bounded), to count the expired under any TTL the user types
  let ttl: TtlTally | undefined;
  const ttlAccess = new TtlAccessCounter();
  /** numbers the next entry: STOP at the sample's limit, LISTED when statistics skip it (a broadcast copy), else COUNTED */
  const admit = (subtask: number, keyGroup: number): Admission => {
    if (total >= limit) {
      limited = true;
      return STOP;
    }
    if (current === undefined || current.keyGroup !== keyGroup) parts.push((current = { subtask, keyGroup, first: total, count: 0 }));
    current.count++;
    total++;
    if (!partCounted) return LISTED;
    counted++;
    return COUNTED;
  };
  const statistics = createStatisticsVisitor<ProtobufStatsAccumulator>({
    admit(part, _state, subtask, keyGroup, size, key) {
      const a = admit(part.subtask, part.kind === 'operator' ? -1 : keyGroup);
      // every subtask's copy of a broadcast state is drawn per subtask; only one copy counts in the statistics
      if (a === LISTED) bump(bySubtask, subtask, size);
      if (a !== COUNTED) return a === STOP ? null : undefined;
      valueBytes += size;
      addValueSize(valueSizes, valueSizeSlots, part.kind === 'keyed' ? keyGroup : -1, subtask, size, key);
      bump(byKeyGroup, keyGroup, size);
      bump(bySubtask, subtask, size);
      return proto;
    },
    protobuf: (p, f, key) => p.add(f, key, total - 1),
    value(_p, v) {
      if (v === null || !isTtlValue(v)) return;
      addTtlEntry((ttl ??= createTtlTally(undefined)), v, undefined);
      ttlAccess.add(v);
    },
  });
  const covered = await scanState(
    opened,
    registry,
    { operatorId: op.id, states: query.state, ...(query.sample?.kind === 'key-groups' ? { sample: query.sample } : {}) },
    {
      part(part) {
        current = undefined;
        const subtask = op.subtasks.find((s) => s.index === part.subtask)!;
        partCounted = part.kind === 'keyed' || isCountedOperatorPart(op, subtask, query.state);
        if (!scoped) {
          scoped = true;
          scope = part.kind === 'keyed' ? 'keyed' : part.broadcastStates.includes(query.state) ? 'broadcast' : 'operator';
        }
      },
      // canonical keyed state: an entry whose key checks in place and whose value is one Protobuf frame
      // is counted and scanned from the read bytes, without an entry object; the rest is decoded
      ...(options.readInPlace === false ? { entry: statistics.entry } : statistics),
    },
    // nothing of an entry is kept past its visit: the keyed streams are read into one set of reused buffers, the next window ahead
    { values: { mode: 'frame' }, signal: options.signal, reuseReadBuffers: true },
  );
  const sorted = (m: Map<number, DistributionBucket>) => [...m.values()].sort((a, b) => a.id - b.id);
  const protobuf = proto.finish();
  const { largestValues, keyGroupSkew } = finishValueSizes({
    operatorId: query.operatorId,
    state: query.state,
    scope,
    entries: counted,
    valueBytes,
    valueSizes,
  });
  const stats: StateStatsDetail = {
    operatorId: query.operatorId,
    state: query.state,
    scope,
    entries: counted,
    valueBytes,
    rows: total,
    truncated: false,
    ...(query.sample ? { sample: { sample: query.sample, keyGroupsRead: covered.keyGroupsRead, keyGroupsWithData: covered.keyGroupsWithData, limited } } : {}),
    bytesRead: options.bytesRead(),
    byKeyGroup: sorted(byKeyGroup),
    // every subtask that holds entries, broadcast copies included (their sum is `rows`, not `entries`)
    bySubtask: sorted(bySubtask),
    ...(protobuf ? { protobuf: protobuf.summary } : {}),
    ...(largestValues ? { largestValues } : {}),
    ...(keyGroupSkew ? { keyGroupSkew } : {}),
    ...(ttl ? { ttl, ttlAccess: ttlAccess.finish() } : {}),
    protobufDetail: protobuf?.detail ?? null,
  };
  return { stats, index: { total, parts } };
}

const STOP = 0;
const LISTED = 1;
const COUNTED = 2;
type Admission = typeof STOP | typeof LISTED | typeof COUNTED;

function bump(m: Map<number, DistributionBucket>, id: number, bytes: number): void {
  let b = m.get(id);
  if (b === undefined) m.set(id, (b = { id, entries: 0, bytes: 0 }));
  b.entries++;
  b.bytes += bytes;
}
