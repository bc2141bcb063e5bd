/**
 * What a value is once read: the decoded model (DecodedValue), the codec that reads one value
 * (ValueCodec), how a scan reads values (ValueMode, ValueFrame). The lowest layer of `flink/`: the
 * value codecs of this folder and every serializer snapshot (`snapshots/`) build on it.
 */
import type { ByteReader } from '../../io';

export interface ByteRange {
  /** absolute offset inside `file` */
  offset: number;
  length: number;
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
  /**
   * Optional, for a map's codec (MapSerializer): reads one map as `decode` does and says where each
   * entry's value lies in its stream (absolute offsets, the null flag included), in entry order: a
   * heap MapState stores a key's whole map as one value, and each user key's entry needs its own range.
   */
  decodeWithEntryRanges?(r: ByteReader, mode?: ValueMode): { value: DecodedValue; entryRanges: ByteRange[] };
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

/** What a value stepped over in `skip` mode decodes to. */
export const SKIPPED_VALUE: DecodedValue = Object.freeze({ kind: 'other', type: 'skipped value', text: 'stepped over, not decoded' });
