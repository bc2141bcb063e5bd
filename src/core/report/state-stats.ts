import type { StateScope } from '../flink';
import type { ProtobufStateScanSummary } from '../protobuf';

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
}
