/**
 * One pass over a state (or a sample of it) with the structural scan: entry counts per key group and
 * subtask, the Protobuf statistics (accumulate-protobuf-stats), and the entry index the values
 * table pages with (one record per key group: where its entries start in the state's numbering).
 * No entry, value or frame is kept: memory is O(key groups + histogram + examples).
 */
import { createRowKeyText, describeEntryKey } from '../core/compat';
import { checkStateSample, type CancelSignal, type OpenedSavepoint, type SnapshotRegistry, type StateEntry, type StateSample } from '../core/flink';
import { readProtobufFrameLength } from '../core/protobuf';
import { ProtobufStatsAccumulator } from './accumulate-protobuf-stats';
import type { DistributionBucket, StateStats } from './inspector';
import { readStateParts } from './read-state-parts';
import { findValueFrames, getWorkerScanCodec, type ProtobufReadControl } from './register-worker-protobuf-readers';

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
  options: { signal: CancelSignal; bytesRead: () => number; /** false: decode every entry (the reference the in-place read is tested against) */ readInPlace?: boolean },
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
  // the key text of the row just added, made only if the statistics ask for it (during proto.add)
  const rowKey = createRowKeyText();
  outer: for await (const part of readStateParts(opened, registry, sampleQuery, coverage)) {
    let current: IndexedPart | undefined;
    /** numbers the next entry of the part: STOP at the sample's limit, LISTED when statistics skip it (a broadcast copy), else COUNTED */
    const admit = (keyGroup: number): Admission => {
      if (total >= limit) {
        limited = true;
        return STOP;
      }
      if (current === undefined || current.keyGroup !== keyGroup) parts.push((current = { subtask: part.subtask, keyGroup, first: total, count: 0 }));
      current.count++;
      total++;
      if (!part.counted) return LISTED;
      counted++;
      return COUNTED;
    };
    /** one decoded entry (frames found from its value); false at the sample's limit */
    const addEntry = (e: StateEntry): boolean => {
      const a = admit(part.kind === 'operator' ? -1 : e.keyGroup);
      if (a !== COUNTED) return a !== STOP;
      const size = e.valueRange.length;
      bump(byKeyGroup, e.keyGroup, size);
      bump(bySubtask, e.subtask, size);
      const frames = findValueFrames(control, e.value);
      if (frames.length > 0) {
        let text: string | undefined;
        const key = () => (text ??= describeEntryKey(e.key, e.userKey));
        for (const f of frames) proto.add(f, key, total - 1);
      }
      return true;
    };
    if (part.runs === undefined || options.readInPlace === false) {
      for await (const e of part.entries) if (!addEntry(e)) break outer;
      continue;
    }
    // canonical keyed state: an entry whose key checks in place and whose value is one Protobuf frame
    // is counted and scanned from the read bytes, without an entry object (KeyedEntryRun); the rest is decoded
    for await (const run of part.runs) {
      const walked = run.walkRows(getWorkerScanCodec, addEntry, (i, scan) => {
        const a = admit(run.keyGroup);
        if (a !== COUNTED) return a !== STOP;
        const start = run.valueStart(i);
        const end = run.valueEnd(i);
        bump(byKeyGroup, run.keyGroup, end - start);
        bump(bySubtask, run.subtask, end - start);
        // the frame as the codec reads it in `scan` mode (none where it fails: a short value, a refused length)
        const length = readProtobufFrameLength(run.bytes, start, end, scan.codec.content.settings.maxMessageSize);
        if (length < 0) return true;
        const frame = run.bytes.subarray(start, start + 4 + Math.min(length, end - start - 4));
        rowKey.at(run, i);
        proto.add({ offset: run.baseOffset + start, frame, length, codec: scan.codec, index: scan.index() }, rowKey.text, total - 1);
        return true;
      });
      if (!walked) break outer;
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
