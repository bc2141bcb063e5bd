/**
 * The one interface between the UI and the decoding core. Two implementations share it:
 * `LocalInspector` (in-process, used directly by unit tests and inside the worker) and the Comlink
 * proxy returned by `connectWorkerInspector` (the UI's view of the Web Worker). Everything that
 * crosses it is structured-clonable data: results, progress events and failures (never class
 * instances, so nothing is lost at the worker boundary).
 */
import type { DecodeErrorJson, UsageErrorJson } from '../core/io';
import type { SavepointInspection, SourcesAndSinks, StateEntry, StateSample } from '../core/flink';
import type { DescribedScanFinding, LibraryLine, SerializerSettings } from '../core/compat';
import type { KryoMigrationOperator } from '../core/migration';
import type {
  CompatibilityReport,
  KeyGroupSizes,
  ReportView,
  SavepointDiff,
  SizeBreakdown,
  SizeKind,
  SizePart,
  SnapshotVerdicts,
  StateStats,
  TtlAccessHistogram,
} from '../core/report';
import type { CompanionAccess } from './open-companion-input';

export type { StateStats };
export type { SavepointDiff };
/** where the bytes are, by operator → state → subtask (core/report's size breakdown, plain data) */
export type { KeyGroupSizes, SizeBreakdown, SizeKind, SizePart };

/** What `check` is asked: the target library line of the new application and its settings. */
export interface CheckOptions {
  target: LibraryLine;
  newSettings: Partial<SerializerSettings>;
  /** the new root message for every Protobuf state (default: each state's saved root) */
  newRoot?: string;
  /** per state `<operator id>/<state name>` → its new root message; wins over newRoot (the CLI's `--root OP/STATE=NAME`) */
  newRoots?: Readonly<Record<string, string>>;
}

/** How the app's Compare view asks for a diff. */
export interface CompareOptions {
  /** which side the open savepoint is (default `newer`: the other one is the older, e.g. the previous savepoint) */
  openIs?: 'older' | 'newer';
  /** also scan the entries of both: entries, value bytes and key-group skew per state */
  values?: boolean;
}

export type ExportFormat = 'json' | 'markdown' | 'html';

/**
 * A check's report as the app receives it: the report (what `check --format json` writes) and what the app
 * draws of it besides, worked out in the worker (core/report buildReportView: findings as the text formats
 * list them, value alerts, what the new schema makes of saved unknown field numbers).
 */
export interface ViewedReport extends CompatibilityReport {
  view: ReportView;
}

/** What the savepoint's serializer snapshots tell alone, before any new schema: worked out in the worker from the inspection. */
export interface SnapshotFindings {
  /** core/report evaluateSnapshotVerdicts for each library line (the app shows the chosen line's, 1.x before one is chosen) */
  verdicts: Record<LibraryLine, SnapshotVerdicts | null>;
  /** per operator id, the migration plan of its Kryo-held Protobuf states (core/migration planKryoMigration, as `migration-plan` prints it); operators without such state are absent */
  kryoMigrationPlans: Record<string, KryoMigrationOperator>;
}

/** One input file as the user gave it: relative path (folder drops keep their tree) and bytes. */
export interface InputFile {
  /** e.g. `savepoint-7/_metadata`, `savepoint.tar.gz`, `schema/new.binpb` */
  path: string;
  blob: Blob;
}

export type InspectorInput =
  /** metadataPath: which `_metadata` of a drop holding several (the `candidates` of a `several-savepoints` failure) */
  | { kind: 'files'; files: InputFile[]; metadataPath?: string }
  /**
   * a savepoint folder/archive served over HTTP (?savepoint=<url>), with the new schema as files; or in an
   * object store (s3://, abfss://, …), read through the local companion when `companion` is given
   */
  | { kind: 'url'; url: string; schemaFiles: InputFile[]; companion?: CompanionAccess };

/** What a file was taken for when the input was classified. */
export type InputFileRole = 'savepoint-metadata' | 'savepoint-file' | 'savepoint-archive' | 'descriptor-set' | 'ignored';

export interface ClassifiedFile {
  path: string;
  size: number;
  role: InputFileRole;
  /** why a file was ignored or how it was recognised */
  note?: string;
}

export type InspectorPhase = 'hashing' | 'opening' | 'reading-metadata' | 'reading-state-headers' | 'scanning-values' | 'evaluating' | 'building-report';

export interface InspectorProgress {
  phase: InspectorPhase;
  /** bytes read so far in this phase */
  bytesRead: number;
  /** bytes this phase will read at most (0 when unknown) */
  bytesTotal: number;
  /** e.g. the file being read */
  detail?: string;
}

export type ProgressListener = (p: InspectorProgress) => void;

export interface InputFileDigest {
  path: string;
  size: number;
  /** lower-case hex SHA-256 of the content: for `_metadata` and descriptor sets only (state files are identified by path and size; see README) */
  sha256?: string;
}

export interface OpenedSession {
  /** SHA-256 over the savepoint hash and the (path, size, sha256) of each descriptor set: the cache key of the compatibility results */
  inputHash: string;
  /** SHA-256 over `_metadata`'s bytes and the sorted (path, size) listing of the savepoint's other files (null without a savepoint): the cache key of inspection and scans; no state file is read for it */
  savepointHash: string | null;
  files: ClassifiedFile[];
  digests: InputFileDigest[];
  /** display name of the savepoint input (folder, archive or `_metadata`), null when only a schema was given */
  savepointName: string | null;
  /** display name of the new schema (descriptor set), null when none was given */
  descriptorSetName: string | null;
  warnings: string[];
  /** an object-store URL read through the companion: how the companion reached the store (endpoint, credential source) */
  store?: { endpoint: string; credentials: string };
}

/** One state, optionally read as a sample (every n-th key group, or the first N entries). */
export interface StateQuery {
  operatorId: string;
  state: string;
  /** read a sample only; the stats, the values table and the details of one sample agree */
  sample?: StateSample;
}

export interface EntryQuery extends StateQuery {
  offset: number;
  limit: number;
}

/** One row of the values table: small, so a page of many rows crosses the worker boundary cheaply. */
export interface EntryRow {
  index: number;
  subtask: number;
  keyGroup: number;
  key?: string;
  namespace?: string;
  userKey?: string;
  /** short text of the value */
  value: string;
  /** bytes of the value in its file */
  size: number;
  /** unknown Protobuf fields in the value (0 for non-Protobuf values) */
  unknownFields: number;
  /** a key that is a Table row (RowData): its change kind and one short text per field, in field order */
  keyRow?: RowCells;
  /** a value that is a Table row: likewise (the values table shows them as typed columns) */
  valueRow?: RowCells;
}

/** A Table row as the values table shows it: the row kind (`+I`, `-U`, `+U`, `-D`) and each field's short text. */
export interface RowCells {
  rowKind: string;
  cells: string[];
}

export interface EntryPage {
  /** total entries of the state (known after the first scan) */
  total: number;
  offset: number;
  rows: EntryRow[];
}

export interface EntryDetail {
  row: EntryRow;
  entry: StateEntry;
  /** the Protobuf values of the entry (one for VALUE/MAP entries, one per element of a LIST), in order */
  values: EntryProtobufValue[];
  /** true when a value was cut at the view caps (`dump`'s bounds): the pane says where and offers the whole value */
  cut: boolean;
}

/** Protobuf wire type names, by wire type number. */
export const WIRE_TYPE_NAMES = ['VARINT', 'I64', 'LEN', 'SGROUP', 'EGROUP', 'I32'] as const;

/**
 * One decoded Protobuf value with its bytes; all offsets are relative to the frame's first byte. Cut at
 * the view caps unless the whole value was asked for: each `…Omitted` says what was left out.
 */
export interface EntryProtobufValue {
  typeName: string;
  /** the frame as stored (4-byte big-endian length, then the payload): its first bytes, up to the cap */
  frame: Uint8Array;
  /** the whole frame's length (more than `frame.length` when the view cut it) */
  frameSize: number;
  /** absolute offset of the frame in its (decompressed) stream */
  frameOffset: number;
  payloadSize: number;
  depth: number;
  /** the decoded JSON; null when its rendering is over the cap (`jsonOmitted` says so) */
  json: unknown;
  jsonOmitted?: string;
  /** with the first bytes of each field (`head`) */
  unknownFields: { path: string; number: number; wireType: number; offset: number; length: number; head: Uint8Array }[];
  /** unknown fields past the cap, not listed */
  unknownFieldsOmitted?: number;
  /** the ranges that start inside `frame`, up to the cap */
  fieldRanges: { path: string; number: number; known: boolean; offset: number; length: number }[];
  fieldRangesOmitted?: number;
}

export interface DistributionBucket {
  /** key group or subtask index */
  id: number;
  entries: number;
  /** value bytes */
  bytes: number;
}

export interface UnknownFieldStat {
  /** full name of the message that holds the unknown field */
  message: string;
  number: number;
  wireType: number;
  occurrences: number;
  /** values holding at least one occurrence */
  values: number;
  bytes: number;
  /** keys of example entries */
  examples: string[];
}

/** Payload sizes in [from, to) */
export interface SizeBin {
  from: number;
  to: number;
  count: number;
}

/** What the app shows of a state's Protobuf values besides the scan summary (StateStats.protobuf). */
export interface ProtobufStateDetail {
  typeName: string;
  javaClass: string;
  settings: { maxMessageSize: number; recursionLimit: number; deterministic: boolean };
  unknownFields: UnknownFieldStat[];
  histogram: SizeBin[];
  /** largest payloads above the aliasing threshold, largest first (at most 50) */
  largePayloads: { key: string; entryIndex: number; payloadSize: number }[];
  /** the scan summary's value findings worded as `stats` prints them (core/compat describeScanFinding) */
  findings: DescribedScanFinding[];
}

/** What a sampled scan covered, shown next to its figures. */
export interface StatsSampleInfo {
  sample: StateSample;
  /** key groups with data that were read / that exist (key-group samples; keyed states) */
  keyGroupsRead: number;
  keyGroupsWithData: number;
  /** first-entries samples: true when the count stopped the scan (the state holds more) */
  limited: boolean;
}

/**
 * The app's statistics of one state: the core's StateStats (what `stats` prints: entries, value bytes,
 * the Protobuf scan summary) and what the views draw besides.
 */
export interface StateStatsDetail extends StateStats {
  /** rows of the values table: every entry of every subtask (more than `entries` for a broadcast state held by several subtasks) */
  rows: number;
  /** always false: the structural scan keeps no entry, so it has no entry cap (kept for compatibility) */
  truncated: boolean;
  /** present when the scan read a sample */
  sample?: StatsSampleInfo;
  /** bytes of state files read by the scan */
  bytesRead: number;
  byKeyGroup: DistributionBucket[];
  /** every subtask that holds entries: a broadcast state's copies each count here (their sum is `rows`), once in `entries` */
  bySubtask: DistributionBucket[];
  /** null when the state holds no Protobuf value */
  protobufDetail: ProtobufStateDetail | null;
  /** with `ttl` (a state with time-to-live): its values' access times, for countTtlExpired under the TTL and time the user gives */
  ttlAccess?: TtlAccessHistogram;
}

/**
 * Failure data as it crosses the boundary, by who must act (the core's `classifyError`), so the UI
 * titles it honestly:
 * - `input`: the user's input — a DecodeError (file, offset, logical path, code) or a UsageError
 *   (nothing open, only a schema, a URL that is not http(s), an entry that does not exist);
 * - `network`: a remote file could not be fetched (DecodeError code `network`); the message names
 *   what the server must send;
 * - `internal`: a bug of the inspector, with its stack (the only kind to be reported as a bug);
 * - `cancelled`: the user cancelled the step; `unavailable`: a part this build does not bundle (the demo).
 */
export type InspectorFailure =
  | ((DecodeErrorJson | UsageErrorJson) & { kind: 'input' })
  | (DecodeErrorJson & { kind: 'network' })
  | { kind: 'internal'; name: string; message: string; stack?: string }
  | { kind: 'cancelled'; message: string }
  | { kind: 'unavailable'; message: string };

export type InspectorFailureKind = InspectorFailure['kind'];

/** One state to export (the Query view's tables, the Export-state action). */
export interface StateExportQuery extends StateQuery {
  /** the state's scope, when a name is used in more than one */
  scope?: 'keyed' | 'operator' | 'broadcast';
  /** arrow: an Arrow IPC stream per chunk (what the Query view inserts into DuckDB) */
  format: 'jsonl' | 'csv' | 'parquet' | 'arrow';
  /** Parquet: parquet-protobuf's legacy layout (default) or LIST/MAP wrappers */
  layout?: 'legacy' | 'spec';
}

export interface StateExportSummary {
  rows: number;
  entries: number;
  valueBytes: number;
  /** why the rows are not the whole state */
  incomplete: string[];
}

/** Receives an export's bytes in order; the export waits for a returned promise (back pressure). */
export type ExportChunkListener = (chunk: Uint8Array) => void | Promise<void>;

/** Several states of one operator to export in one read of its state files (the Query view's tables). */
export interface StatesExportQuery {
  operatorId: string;
  states: readonly { state: string; scope?: 'keyed' | 'operator' | 'broadcast' }[];
  format: StateExportQuery['format'];
  layout?: StateExportQuery['layout'];
  /** read a sample only (every n-th key group, or the first entries of each state); each summary says so */
  sample?: StateSample;
}

/** Receives the bytes of state `index` of a StatesExportQuery, in order per state; the export waits for a returned promise. */
export type IndexedExportChunkListener = (index: number, chunk: Uint8Array) => void | Promise<void>;

export interface Inspector {
  /** Reads and classifies the input, hashes it and opens the savepoint. Replaces any open session. */
  open(input: InspectorInput, onProgress?: ProgressListener): Promise<OpenedSession>;
  /** The savepoint model (operators, states, sizes). */
  getInspection(onProgress?: ProgressListener): Promise<SavepointInspection>;
  /** The verdicts and Kryo migration plans the serializer snapshots give alone (from the inspection; read once per session). */
  getSnapshotFindings(onProgress?: ProgressListener): Promise<SnapshotFindings>;
  /** The connectors' state as views (Kafka source splits and enumerator, legacy consumer offsets, sink writers): reads only those operator states. */
  getSourcesAndSinks(onProgress?: ProgressListener): Promise<SourcesAndSinks>;
  /** Where the bytes are, by operator → state → subtask, from the handles and the inspection's states (read first when there is none); no state byte read. */
  getSizeBreakdown(onProgress?: ProgressListener): Promise<SizeBreakdown>;
  /** The operator id Flink derives from a uid (murmur3_128, as Flink 1.x/2.x hash user-specified uids). */
  computeOperatorId(uid: string): Promise<string>;
  /** A page of the values table: needs the state's scan (getStateStats, run first when missing); decodes only the page's rows. */
  listEntries(query: EntryQuery, onProgress?: ProgressListener): Promise<EntryPage>;
  /** One entry, fully decoded (JSON, frame bytes, unknown-field and field ranges), read from its key group only. */
  /** `whole`: the value without the view caps (the user asked for it) */
  getEntryDetail(query: StateQuery & { index: number; whole?: boolean }): Promise<EntryDetail>;
  /** Scans the state structurally (once per sample, cached): distribution over key groups/subtasks, Protobuf value statistics. */
  getStateStats(query: StateQuery, onProgress?: ProgressListener): Promise<StateStatsDetail>;
  /** Writes one state's entries as JSON Lines, CSV or Parquet (core/export), streamed to `onChunk`; cancellable with `cancel`. */
  exportState(query: StateExportQuery, onChunk: ExportChunkListener, onProgress?: ProgressListener): Promise<StateExportSummary>;
  /** Writes several states of one operator in one read of its state files (core/export exportStates): state i's chunks to `onChunk(i, …)`; one summary per state. */
  exportStates(query: StatesExportQuery, onChunk: IndexedExportChunkListener, onProgress?: ProgressListener): Promise<StateExportSummary[]>;
  /** The header-only verdict: `_metadata` and the state headers, no value read (checkSavepoint with scanValues false). */
  checkHeaders(options: CheckOptions, onProgress?: ProgressListener): Promise<ViewedReport>;
  /** The compatibility report of the open savepoint against the new schema with the value scan (the same as the CLI's `check`). */
  check(options: CheckOptions, onProgress?: ProgressListener): Promise<ViewedReport>;
  /** The report as a file, byte-for-byte what `check --format <format>` writes for the same inputs. */
  formatReport(options: CheckOptions, format: ExportFormat): Promise<string>;
  /** A saved schema of the open savepoint (a Protobuf snapshot's descriptor set, by its SHA-256), byte for byte what `export-schema --output` writes. */
  getSavedSchema(descriptorSha256: string): Promise<Uint8Array>;
  /** The message full names the new schema declares, sorted (the app's root picker for a state whose root the new schema lacks). */
  listNewSchemaMessages(): Promise<string[]>;
  /**
   * The open savepoint compared with another (core/report diffSavepoints, as `diff` prints it): the other input is
   * opened beside the open one, which stays open. `_metadata` and the state headers only unless `values`.
   */
  compareWith(input: InspectorInput, options: CompareOptions, onProgress?: ProgressListener): Promise<SavepointDiff>;
  /** Cancels the running long step; it rejects with a `cancelled` failure. */
  cancel(): Promise<void>;
}
