/**
 * Serializer snapshots (the decoded values and their codecs are `values/value-types.ts`'s, re-exported here).
 * `flink/` knows serializers only through the SnapshotRegistry: each snapshot class name maps to
 * one SnapshotReader, so a new serializer (e.g. the Protobuf one, registered by `protobuf/`) is one
 * registration, never a change here.
 */
import type { ByteReader } from '../../io';
import type { ByteRange, ValueCodec } from '../values/value-types';

export {
  SKIPPED_VALUE,
  type ByteRange,
  type DecodedValue,
  type ValueCodec,
  type ValueFrame,
  type ValueMode,
  type ValueModeSource,
} from '../values/value-types';

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
