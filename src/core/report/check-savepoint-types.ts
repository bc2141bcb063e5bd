import type {
  LibraryLine,
  SerializerSettings,
  StateCompatibility,
  TypeKind,
  FoundKryoProtobufState,
  FoundPeerSerdeState,
  FoundProtobufState,
  FoundOtherState,
  ValueWarningTally,
} from '../compat';
import type { CancelSignal, OpenedSavepoint, SavepointSession } from '../flink';
import type { SavepointFiles } from '../io';
import type { NewSchemaReport, ReportInputFile } from './report-types';

export interface CheckSavepointInput {
  files: SavepointFiles;
  /** the savepoint at `files` already opened (a SavepointSession's): `_metadata` is not read again to open it */
  opened?: OpenedSavepoint;
  /** the new schema as a FileDescriptorSet (from a descriptor-set file, or extracted from the job jar) */
  descriptorSet: { name: string; bytes: Uint8Array };
  /**
   * The new schema came from the job's JAR (`descriptorSet` holds its embedded descriptors): what the
   * jar tells for the report, and the jar files for its inputs. Every json_name is then compared as
   * written (no derived one to drop).
   */
  jobJar?: { schema: NewSchemaReport; files: ReportInputFile[]; stringLiterals?: { values: string[]; uids: string[]; method: string; classesRead: number } };
  /** the savepoint's name in the report (default files.name); the CLI and the app pass the base name so their reports match */
  savepointName?: string;
  tool: { name: string; version: string };
  /** default 1.x (the newest line this project supports) */
  target?: LibraryLine;
  newSettings?: Partial<SerializerSettings>;
  /** the new root message for every Protobuf state (default: each state's saved root) */
  newRoot?: string;
  /** per state `<operator id or uid>/<state name>` → new root; wins over newRoot */
  newRoots?: Readonly<Record<string, string>>;
  /** the new Java class (default: derived from the new descriptor's file options) */
  newJavaClass?: string;
  /** default: the saved kind */
  newKind?: TypeKind;
  /** scan saved values for the value warnings (default true) */
  scanValues?: boolean;
  /** build each state's schema diff (default true; the text, Markdown, JUnit and GitHub formats do not print it) */
  schemaDiff?: boolean;
  /** where the saved values are scanned (default IN_THREAD_VALUE_SCANNER: here, one operator after another) */
  valueScanner?: ValueScanner;
  generatedAt?: string;
  signal?: CancelSignal;
}

/**
 * Where `check`'s value scan runs: in this thread (IN_THREAD_VALUE_SCANNER), in worker threads (the CLI:
 * a share of the subtasks each), or anywhere that gives the same results.
 */
export interface ValueScanner {
  /** One result per state of `evaluated.protobuf`, in order, each exactly what the in-thread scan gives for it; a cancelled scan rejects. */
  scanValues(evaluated: EvaluatedSavepoint, signal?: CancelSignal): Promise<(StateValueTally | StateValuesNotRead | undefined)[]>;
}

/** One Protobuf state with its verdict: the input of the value scan and of the report. */
export interface EvaluatedProtobufState {
  found: FoundProtobufState;
  compatibility: StateCompatibility;
}

/** `_metadata` and the state headers read, every Protobuf state evaluated against the new set; no value read yet. */
export interface EvaluatedSavepoint {
  /** the savepoint as the evaluation opened it (or as `opened` gave it): the value scan reads it, not `_metadata` again */
  opened: OpenedSavepoint;
  /** the session the evaluation inspected `opened` in: the value scan reads with its registry and its stream headers (each read once per check) */
  session: SavepointSession;
  newSettings: Required<SerializerSettings>;
  target: LibraryLine;
  protobuf: EvaluatedProtobufState[];
  /** Protobuf held by Kryo: not restorable with the native serializer (their values are not scanned by `check`) */
  kryo: { found: FoundKryoProtobufState; compatibility: StateCompatibility }[];
  /** Protobuf written by the peer serializer flink-protobuf-serde: not restorable with the native serializer (values not scanned by `check`) */
  peer: { found: FoundPeerSerdeState; compatibility: StateCompatibility }[];
  other: FoundOtherState[];
}

/** A state whose saved values could not be read (e.g. RocksDB native SST files): why. Its value warnings were not checked. */
export interface StateValuesNotRead {
  notRead: string;
}

/** The value warnings of one state (or of some of its subtasks) before they are finished, and how many values were scanned. */
export interface StateValueTally {
  tally: ValueWarningTally;
  valuesScanned: number;
}
