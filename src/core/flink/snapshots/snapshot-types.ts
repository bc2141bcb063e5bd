/**
 * Serializer snapshots and decoded values.
 * `flink/` knows serializers only through the SnapshotRegistry: each snapshot class name maps to
 * one SnapshotReader, so a new serializer (e.g. the Protobuf one, registered by `protobuf/`) is one
 * registration, never a change here.
 */
import type { ByteReader } from '../../io';

export interface ByteRange {
  /** absolute offset inside `file` */
  offset: number;
  length: number;
}

export interface SerializerSnapshot {
  /** binary Java class name of the snapshot, e.g. `org.apache.flink.api.common.typeutils.base.LongSerializer$LongSerializerSnapshot` */
  className: string;
  version: number;
  /** readable type: `Long`, `Tuple1<Long>`, `List<String>`, `Protobuf flink.x.Entry` */
  typeLabel: string;
  /**
   * known: decoded, values decodable (codec present)
   * opaque: structure read/skipped, values shown as bytes (Kryo, Java serialization, Avro, …)
   * unknown: class not in the registry; the snapshot's extent could not be determined
   */
  status: 'known' | 'opaque' | 'unknown';
  nested: SerializerSnapshot[];
  /** Flink TypeSerializer.getLength(): fixed byte length, or -1 when variable */
  fixedLength: number;
  /** class-specific, JSON-friendly details for display (tuple class, POJO fields, Protobuf root, settings …) */
  details?: Record<string, unknown>;
  /** decodes one value written by this serializer; absent for opaque/unknown snapshots */
  codec?: ValueCodec;
  range?: ByteRange;
  file?: string;
}

/**
 * How a scan reads values (scanState):
 * - `decode`: every value decoded (a Protobuf message to its DecodedValue, with the decoder's detail);
 * - `frame`: values that a module reads in frames (Protobuf) are located, not decoded: the value is a
 *   ValueFrame over the read bytes, for a visitor that scans the payload itself;
 * - `skip`: such values are only stepped over (their place in the entry is SKIPPED_VALUE).
 * Codecs of other values decode in every mode; composite codecs pass the mode to their elements.
 */
export type ValueMode = 'decode' | 'frame' | 'skip';

/**
 * A value read in `frame` mode: where its bytes lie, not what they mean. Transient: `bytes` may be a
 * reused read buffer, valid only while the scan visits the entry (copy what outlives the visit).
 */
export interface ValueFrame {
  kind: 'frame';
  /** the module whose codec framed it, e.g. `protobuf` */
  format: string;
  /** the codec that framed it: `decode(reader at start)` reads the whole value */
  codec: ValueCodec;
  /** bytes[start, end): the value as serialized (its frame header included) */
  bytes: Uint8Array;
  start: number;
  /** where the payload starts (after the frame header) */
  payloadStart: number;
  /** end of the bytes present (less than payloadStart + length when the input ends early) */
  end: number;
  /** declared payload length */
  length: number;
  /** absolute offset of bytes[start] in `file` (as StateEntry.valueRange) */
  offset: number;
  file: string | undefined;
}

/** Where readers of entries look up the value mode as each value is read (a scan may switch it between entries). */
export interface ValueModeSource {
  readonly mode: ValueMode;
}

export interface ValueCodec {
  /** Reads exactly one value at the reader's position (`mode`: see ValueMode; default `decode`). */
  decode(r: ByteReader, mode?: ValueMode): DecodedValue;
  /**
   * Optional, for a `frame` scan that reads keyed values where they lie (scanState's rows): fills `out`
   * with the frame of the one value in bytes[start, end) and returns true, or returns false where
   * `decode` in `frame` mode would throw (too short, a length the settings refuse).
   */
  frameInPlace?(bytes: Uint8Array, start: number, end: number, out: ValueFrame): boolean;
  /**
   * Optional, for keys checked without being built (a whole-state tally): where one value starting
   * at `pos` ends when bytes[pos, end) certainly hold one that `decode` reads without an error and
   * without side effects, else -1 (only `decode` can tell then; it gives the exact error).
   */
  skip?(bytes: Uint8Array, pos: number, end: number): number;
}

/** JSON-friendly decoded values. 64-bit integers are exact decimal strings. */
export type DecodedValue =
  | { kind: 'null' }
  | { kind: 'int'; type: 'Int' | 'Short' | 'Byte' | 'Char'; value: number }
  | { kind: 'long'; value: string }
  | { kind: 'float'; type: 'Float' | 'Double'; value: number | 'NaN' | 'Infinity' | '-Infinity' }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'string'; value: string }
  | { kind: 'bytes'; length: number; base64: string }
  | { kind: 'tuple'; className: string; fields: DecodedValue[] }
  | { kind: 'list'; items: DecodedValue[] }
  | { kind: 'map'; entries: { key: DecodedValue; value: DecodedValue }[] }
  | { kind: 'pojo'; className: string; fields: { name: string; value: DecodedValue }[] }
  | { kind: 'ttl'; lastAccessTimestamp: string; value: DecodedValue }
  | { kind: 'timer'; timestamp: string; key: DecodedValue; namespace: DecodedValue }
  | { kind: 'void-namespace' }
  | { kind: 'time-window'; start: string; end: string }
  | { kind: 'global-window' }
  | { kind: 'enum'; className: string; ordinal: number; name?: string }
  | { kind: 'java-serialized'; length: number; text?: string; base64: string }
  /**
   * A row of Flink's Table runtime (RowData, read from its binary format): the RowKind (`+I`, `-U`,
   * `+U`, `-D`) and one typed column per field (`type` is the field's logical type, e.g. `BIGINT`,
   * `VARCHAR(2147483647)`, `DECIMAL(10, 2)`; fields without a saved name are `f0`, `f1`, …).
   */
  | { kind: 'row'; rowKind: '+I' | '-U' | '+U' | '-D'; fields: { name: string; type: string; value: DecodedValue }[] }
  | { kind: 'other'; type: string; text: string }
  /** a value read in `frame` mode */
  | ValueFrame
  /**
   * raw bytes of a value whose serializer is opaque or unknown; `decodeFailed` when its serializer is
   * known but could not decode these bytes (the reason says where): the state is then partly decoded
   */
  | { kind: 'opaque'; reason: string; length: number; base64: string; decodeFailed?: true }
  /**
   * A structured message decoded by a registered serializer module (e.g. Protobuf).
   * `json` is the module's JSON view; details (byte ranges, unknown fields) come from that module.
   */
  | {
      kind: 'message';
      format: 'protobuf';
      typeName: string;
      /** payload bytes (without the 4-byte frame length) */
      payloadSize: number;
      /** absolute offset of the frame inside its file, for the detail view */
      frame: ByteRange;
      json: unknown;
      unknownFieldCount: number;
      depth: number;
    };

export interface SnapshotReadContext {
  /** Reads a nested snapshot (`utf` class name, `i32` version, content) through the registry. */
  readNested(r: ByteReader): SerializerSnapshot;
  /** nesting depth of the snapshot being read (0 = top level); readers need not check it */
  depth: number;
}

export interface SnapshotReader {
  /** binary Java class names this reader handles */
  readonly classNames: readonly string[];
  /**
   * Reads the snapshot content (after class name and version) and returns the snapshot.
   * Throws a DecodeError for corrupt content.
   */
  read(r: ByteReader, version: number, className: string, ctx: SnapshotReadContext): SerializerSnapshot;
}

/**
 * Maps binary Java snapshot class names to SnapshotReaders. `flink/` knows serializers only
 * through this registry; other modules (e.g. `protobuf/`) add theirs with `register`.
 */
export interface SnapshotRegistry {
  /** Adds (or replaces) the reader for each of `reader.classNames`. */
  register(reader: SnapshotReader): void;
  /** The reader for a binary class name such as `…LongSerializer$LongSerializerSnapshot`. */
  lookup(className: string): SnapshotReader | undefined;
  /** Every registered class name, sorted. */
  listClassNames(): string[];
  /** Adds an inferrer: asked, in the order added, about the bytes of a snapshot whose class has no reader. */
  registerInferrer(inferrer: SnapshotInferrer): void;
  /** The inferrers, in the order added. */
  listInferrers(): readonly SnapshotInferrer[];
}

/**
 * Recognises by structure the snapshot of a class no reader knows (its layout is not published). A snapshot has
 * no length prefix, so it is asked only once its extent is bounded: by resynchronising on the header fence.
 */
export interface SnapshotInferrer {
  /**
   * `r` is at the snapshot's content (after class name and version); bytes up to `end` (a position of `r`) hold
   * that content and possibly what followed it. Returns the snapshot and the position where the recognised
   * structure ends, or undefined; never throws for bytes it does not recognise.
   */
  infer(r: ByteReader, className: string, version: number, end: number): InferredSnapshot | undefined;
}

export interface InferredSnapshot {
  /** status `known` with a codec when the values' framing is recognised; its `details.inferred` is an InferredSnapshotNote */
  snapshot: SerializerSnapshot;
  /** position of `r` where the recognised structure ends */
  end: number;
}

/** `details.inferred` of a snapshot read by structure: never exact, so it says what was read where and what not. */
export interface InferredSnapshotNote {
  /** how the snapshot was recognised, in words */
  by: string;
  /** what was located, with absolute offsets in the snapshot's file */
  read: { what: string; offset: number; length: number; encoding?: string }[];
  /** what was not read (unrecognised bytes, settings), in words */
  notRead: string[];
}

/** The InferredSnapshotNote of a snapshot read by structure, if it is one. */
export function getInferredSnapshotNote(snapshot: SerializerSnapshot): InferredSnapshotNote | undefined {
  return snapshot.details?.['inferred'] as InferredSnapshotNote | undefined;
}

/** What a value stepped over in `skip` mode decodes to. */
export const SKIPPED_VALUE: DecodedValue = Object.freeze({ kind: 'other', type: 'skipped value', text: 'stepped over, not decoded' });
