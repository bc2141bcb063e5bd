/**
 * One pass over a state (or a sample of it) with the structural scan: entry counts per key group and
 * subtask, the Protobuf statistics (accumulate-protobuf-stats), and the entry index the values
 * table pages with (one record per key group: where its entries start in the state's numbering).
 * No entry, value or frame is kept: memory is O(key groups + histogram + examples).
 */
import { describeEntryKey } from '../core/compat';
import { checkStateSample, type CancelSignal, type OpenedSavepoint, type SnapshotRegistry, type StateSample } from '../core/flink';
import { ProtobufStatsAccumulator } from './accumulate-protobuf-stats';
import type { DistributionBucket, StateStats } from './inspector';
import { readStateParts } from './read-state-parts';
import { findValueFrames, type ProtobufReadControl } from './register-worker-protobuf-readers';

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
  stats: StateStats;
  index: StateEntryIndex;
}

export async function scanStateStatistics(
  opened: OpenedSavepoint,
  registry: SnapshotRegistry,
  control: ProtobufReadControl,
  query: { operatorId: string; state: string; sample?: StateSample },
  options: { signal: CancelSignal; bytesRead: () => number },
): Promise<ScannedState> {
  if (query.sample) checkStateSample(query.sample);
  const limit = query.sample?.kind === 'first-entries' ? query.sample.count : Infinity;
  const byKeyGroup = new Map<number, DistributionBucket>();
  const bySubtask = new Map<number, DistributionBucket>();
  const proto = new ProtobufStatsAccumulator();
  const parts: IndexedPart[] = [];
  const coverage = { keyGroupsRead: 0, keyGroupsWithData: 0 };
  let total = 0;
  /** entries counted by the statistics: one copy of a broadcast state (as the CLI's stats), `total` lists every copy */
  let counted = 0;
  let limited = false;
  control.mode = 'scan';
  const sampleQuery = { ...query, signal: options.signal };
  outer: for await (const part of readStateParts(opened, registry, sampleQuery, coverage)) {
    let current: IndexedPart | undefined;
    for await (const e of part.entries) {
      if (total >= limit) {
        limited = true;
        break outer;
      }
      const keyGroup = part.kind === 'operator' ? -1 : e.keyGroup;
      if (current === undefined || current.keyGroup !== keyGroup) parts.push((current = { subtask: part.subtask, keyGroup, first: total, count: 0 }));
      current.count++;
      total++;
      if (!part.counted) continue;
      counted++;
      const size = e.valueRange.length;
      bump(byKeyGroup, e.keyGroup, size);
      bump(bySubtask, e.subtask, size);
      const frames = findValueFrames(control, e.value);
      if (frames.length > 0) {
        let text: string | undefined;
        const key = () => (text ??= describeEntryKey(e.key, e.userKey));
        for (const f of frames) proto.add(f, key, total - 1);
      }
    }
  }
  const sorted = (m: Map<number, DistributionBucket>) => [...m.values()].sort((a, b) => a.id - b.id);
  const stats: StateStats = {
    operatorId: query.operatorId,
    state: query.state,
    entries: counted,
    rows: total,
    truncated: false,
    ...(query.sample ? { sample: { sample: query.sample, ...coverage, limited } } : {}),
    bytesRead: options.bytesRead(),
    byKeyGroup: sorted(byKeyGroup),
    bySubtask: sorted(bySubtask),
    protobuf: proto.finish(),
  };
  return { stats, index: { total, parts } };
}

function bump(m: Map<number, DistributionBucket>, id: number, bytes: number): void {
  let b = m.get(id);
  if (b === undefined) m.set(id, (b = { id, entries: 0, bytes: 0 }));
  b.entries++;
  b.bytes += bytes;
}
