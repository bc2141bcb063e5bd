import type { StateScope } from '../flink';
import type { SizedState } from './size-breakdown';
import type { ProtobufStateScanSummary } from '../protobuf';
import type { TtlTally } from './ttl-tally';
import { describeKeyGroupSkew, type KeyGroupSkew, type LargestValue, type ValueSizeTally } from './value-size-tally';

/**
 * One state's value statistics over a scan (all of it or a sample): what `stats` prints per state and
 * what the app's statistics extend (src/worker's StateStatsDetail: distribution, entry rows, Protobuf
 * details). The one statistics type of the CLI and the app.
 */
export interface StateStats {
  operatorId: string;
  state: string;
  scope: StateScope;
  /** entries counted (a broadcast state: one subtask's copy, every subtask holds the whole state) */
  entries: number;
  /** bytes of the serialized values of those entries (frames included) */
  valueBytes: number;
  /** why the state's values were not read (RocksDB native SST files): its counts are then 0, not a count */
  notRead?: string;
  /** why the entries counted are not the whole state, or not decoded fully (a changelog's keys kept as bytes, …) */
  partly?: string;
  /** structural scan of the Protobuf values (states whose value serializer is the Protobuf one) */
  protobuf?: ProtobufStateScanSummary;
  /** the largest values counted (top N by serialized value size, largest first), with their key and key group */
  largestValues?: LargestValue[];
  /** keyed state: its largest key group by value bytes against the median of those with entries */
  keyGroupSkew?: KeyGroupSkew;
  /** a state with time-to-live (its values TtlValues): their count, access times and, given a TTL and a time, how many had expired */
  ttl?: TtlTally;
  /** the raw tally the two above are made of, while a scan's shares are merged (finishValueSizes removes it) */
  valueSizes?: ValueSizeTally;
}

/** The statistics with their value-size tally described: the largest values and the key-group skew in its place; the TTL tally last. */
export function finishValueSizes(s: StateStats): StateStats {
  const { valueSizes, ttl, ...rest } = s;
  const skew = valueSizes && describeKeyGroupSkew(valueSizes);
  return {
    ...rest,
    ...(valueSizes && valueSizes.largest.length > 0 ? { largestValues: valueSizes.largest } : {}),
    ...(skew ? { keyGroupSkew: skew } : {}),
    ...(ttl ? { ttl } : {}),
  };
}

/** Whether a state is a timer queue (Flink names them `_timer_state/…`). */
export function isTimerState(name: string): boolean {
  return name.startsWith('_timer_state/');
}

/** The states of a scan as the size breakdown takes them: timers by name, Protobuf when its values were scanned as Protobuf. */
export function sizedStatesOfStats(states: readonly StateStats[]): SizedState[] {
  return states.map((s) => ({
    operatorId: s.operatorId,
    name: s.state,
    scope: s.scope,
    kind: isTimerState(s.state) ? 'timers' : s.protobuf ? 'protobuf' : s.scope === 'keyed' ? 'keyed' : 'operator',
  }));
}

/** Timers per operator that has timer state: the entries of its timer queues (operators without timer state left out). */
export function countTimersByOperator(states: readonly StateStats[]): { operatorId: string; timers: number }[] {
  const out = new Map<string, number>();
  for (const s of states) if (isTimerState(s.state)) out.set(s.operatorId, (out.get(s.operatorId) ?? 0) + s.entries);
  return [...out].map(([operatorId, timers]) => ({ operatorId, timers }));
}
