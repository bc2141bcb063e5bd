/**
 * Serializer snapshots and decoded values (spec: flink-savepoint-format.md §5, §6).
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

export interface ValueCodec {
  /** Reads exactly one value at the reader's position. */
  decode(r: ByteReader): DecodedValue;
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
  | { kind: 'other'; type: string; text: string }
  /** raw bytes of a value whose serializer is opaque or unknown */
  | { kind: 'opaque'; reason: string; length: number; base64: string }
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
  /** Reads a nested snapshot (§5.2: utf class name, i32 version, content) through the registry. */
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
}
