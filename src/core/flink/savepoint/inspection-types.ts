/**
 * The inspection model shared by the CLI, the worker and the reports: what a savepoint holds,
 * per operator and per state, built from `_metadata` plus the state-file headers. Values are
 * streamed separately as StateEntry records.
 */
import type { SourcesAndSinks } from './connector-types';
import type { DecodeErrorJson } from '../../io';
import type { ByteRange, DecodedValue, SerializerSnapshot } from '../snapshots/snapshot-types';

export type BackendStateType = 'KEY_VALUE' | 'OPERATOR' | 'BROADCAST' | 'PRIORITY_QUEUE' | 'KEY_VALUE_V2';

/** What a user calls the state. Keyed kinds from the KEYED_STATE_TYPE option; operator kinds from the distribution mode. */
export type StateKind =
  'VALUE' | 'LIST' | 'MAP' | 'REDUCING' | 'AGGREGATING' | 'FOLDING' | 'PRIORITY_QUEUE' | 'OPERATOR_LIST' | 'OPERATOR_UNION' | 'BROADCAST' | 'UNKNOWN';

/** One state meta info entry of a keyed or operator backend header. */
export interface StateMetaInfo {
  name: string;
  backendStateType: BackendStateType;
  kind: StateKind;
  options: Record<string, string>;
  /** by role key: KEY_SERIALIZER, NAMESPACE_SERIALIZER, VALUE_SERIALIZER, USER_KEY_SERIALIZER */
  serializers: Record<string, SerializerSnapshot>;
}

/** Header of a keyed canonical/heap state stream (KeyedBackendSerializationProxy). */
export interface KeyedStateHeader {
  version: number;
  compressed: boolean;
  keySerializer: SerializerSnapshot;
  /** list position = kv-state id */
  states: StateMetaInfo[];
  /** absolute offset where the header ends */
  end: number;
}

/** Header of an operator state stream (OperatorBackendSerializationProxy). */
export interface OperatorStateHeader {
  version: number;
  compressed: boolean;
  states: StateMetaInfo[];
  broadcastStates: StateMetaInfo[];
  end: number;
}

export type StateScope = 'keyed' | 'operator' | 'broadcast';

export interface InspectedState {
  name: string;
  scope: StateScope;
  kind: StateKind;
  backendStateType: BackendStateType;
  /** readable: known serializers; unknown: a snapshot class is not recognised (reason says which); unreadable: header failed */
  status: 'ok' | 'unknown' | 'unreadable';
  statusReason?: string;
  keySerializer?: SerializerSnapshot;
  namespaceSerializer?: SerializerSnapshot;
  /** the state serializer as Flink records it (ListSerializer for LIST, MapSerializer for MAP, element serializer for operator lists) */
  valueSerializer?: SerializerSnapshot;
  /** set when the entries read here are not all of the state (a changelog's changes after the materialized snapshot are not applied): why */
  incomplete?: string;
  /** subtask indexes whose files list this state */
  subtasks: number[];
  /** number of entries (keyed: key/namespace[/user key] pairs; operator list: elements; broadcast: map entries); undefined until scanned */
  entries?: number;
  /**
   * after an entry scan: whether every entry of the state was read and decoded (fully), some of it (partly),
   * or nothing (not-read); without a scan only `not-read` for a state whose header shows it unreadable
   * (inspection/assess-state-decoding.ts)
   */
  decoded?: 'fully' | 'partly' | 'not-read';
  /** why, when not fully */
  decodedReason?: string;
}

export interface InspectedOperator {
  id: string;
  name?: string;
  uid?: string;
  parallelism: number;
  maxParallelism: number;
  fullyFinished: boolean;
  /** subtasks present in `_metadata` */
  subtaskCount: number;
  /** sum of state handle sizes (inline bytes and files) */
  stateSize: number;
  /**
   * keyed handle format: canonical (code 7), heap (12/3 in the heap snapshot layout), rocksdb-full (12/3 in
   * the RocksDB full-snapshot layout), undetermined (12/3 fitting neither), rocksdb-native (5/11),
   * changelog (8/14), none
   */
  keyedFormat: 'canonical' | 'heap' | 'rocksdb-full' | 'undetermined' | 'rocksdb-native' | 'changelog' | 'none';
  states: InspectedState[];
  /** keyed or operator state of a subtask whose states could not even be listed (a header that could not be read): why */
  streamsNotRead: { subtask: number; scope: 'keyed' | 'operator'; reason: string }[];
  warnings: string[];
}

export interface SavepointInspection {
  input: string;
  metadataVersion: number;
  checkpointId: string;
  type: 'savepoint' | 'checkpoint' | 'unknown';
  format: 'CANONICAL' | 'NATIVE' | 'unknown';
  /** total bytes of `_metadata` plus every file it references */
  totalSize: number;
  operators: InspectedOperator[];
  /** how many states were decoded fully, partly, not at all (inspection/assess-state-decoding.ts) */
  summary: InspectionSummary;
  warnings: string[];
  errors: DecodeErrorJson[];
  /**
   * every state file a handle names that the input lacks, by the name it was looked up by (also those no
   * read reached: a RocksDB snapshot's read stops at its first missing SST file); absent when none is
   */
  missingFiles?: string[];
  /** the connectors' state as views (Kafka sources, legacy consumers, sinks), after an entry scan; absent when the savepoint has none */
  sourcesAndSinks?: SourcesAndSinks;
}

/** The states of a savepoint by how completely they were decoded. */
export interface InspectionSummary {
  /** every state listed */
  states: number;
  decodedFully: number;
  partlyDecoded: number;
  notRead: number;
  /** states whose entries were not scanned (inspect --headers-only) and whose header does not show them unreadable */
  notScanned: number;
  /** subtask streams whose states could not even be listed (InspectedOperator.streamsNotRead) */
  streamsNotRead: number;
}

/** One decoded state entry, streamed by the state readers. */
export interface StateEntry {
  operatorId: string;
  state: string;
  subtask: number;
  keyGroup: number;
  /** keyed states only */
  key?: DecodedValue;
  namespace?: DecodedValue;
  /** MapState and broadcast state */
  userKey?: DecodedValue;
  /** null: a null MapState value; for keyed LIST the list of elements */
  value: DecodedValue | null;
  file: string;
  keyRange?: ByteRange;
  valueRange: ByteRange;
}
