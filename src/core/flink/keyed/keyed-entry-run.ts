/**
 * The entries of one key-group block (or window of one), framed into rows (read-key-group-block.ts)
 * and decoded into StateEntry objects one at a time as the run is iterated. A whole-state tally
 * that keeps no entry can instead walk the rows: checkRowKey tells which entries' keys are surely
 * valid without decoding them, and the value bytes are there to read in place.
 */
import { ByteReader } from '../../io';
import { codecOf, decodeKeyedEntryInto, decodeKeyedEntryKeyInto, planKeyedDecode, type DecodedKeyedEntry, type KeyedDecodePlan } from './decode-keyed-entry';
import type { KeyedStateHeader, StateEntry } from '../savepoint/inspection-types';
import type { KeyedReadBuffers } from './keyed-read-buffers';
import type { KeyedStreamInput, WindowRead } from './keyed-stream-types';
import { END_OF_STATE_RUN_FLAG, KeyedEntryRows, ROW_FIELDS } from './read-key-group-block';
import type { SerializerSnapshot, ValueCodec, ValueModeSource } from '../snapshots/snapshot-types';

/** What decoding the key-group blocks of one stream needs, made once per stream. */
export interface KeyedBlockDecoding {
  input: KeyedStreamInput;
  header: KeyedStateHeader;
  /** decode plans by state id, made on first use */
  plans: Map<number, KeyedDecodePlan>;
  /** the state ids to decode (undefined: every state) */
  wanted: ReadonlySet<number> | undefined;
  /** bytes of the key-group prefix of every key (2 above max parallelism 128) */
  prefixBytes: number;
  /** set when read buffers are reused (KeyedReadOptions.reuseReadBuffers): slice and window buffers, and the row table, run after run */
  buffers: KeyedReadBuffers | undefined;
  /** the first window of the next streamed block, read while the last run of the block before is consumed */
  nextWindow?: WindowRead;
  /** checkRowKey's plan by state id, made on first use (null: the state's keys are decoded) */
  keyChecks?: (RowKeyCheck | null | undefined)[];
  /** the value mode of the read (KeyedReadOptions.values) */
  values: ValueModeSource | undefined;
}

interface RowKeyCheck {
  prefixBytes: number;
  skipKey: (bytes: Uint8Array, pos: number, end: number) => number;
  skipNamespace: (bytes: Uint8Array, pos: number, end: number) => number;
}

/** The row table for the next run: the stream's one table, emptied, when buffers are reused; else a new one (a run may be kept). */
export function takeKeyedEntryRows(d: KeyedBlockDecoding): KeyedEntryRows {
  if (d.buffers === undefined) return new KeyedEntryRows();
  const rows = (d.buffers.rows ??= new KeyedEntryRows());
  rows.length = 0;
  return rows;
}

/**
 * One run: iterate it for its StateEntry objects (the wanted states' entries, in stream order), or
 * walk rows 0 … rowCount − 1 (every state's; isRowWanted filters) with the row accessors. Valid until
 * the next run is asked for (its bytes may be a reused read buffer).
 */
export class KeyedEntryRun implements Iterable<StateEntry> {
  readonly rowCount: number;

  constructor(
    private readonly d: KeyedBlockDecoding,
    /** the block's (or window's) bytes the rows point into */
    readonly bytes: Uint8Array,
    /** absolute offset of bytes[0] in `file` */
    readonly baseOffset: number,
    rows: KeyedEntryRows,
    readonly file: string,
    readonly keyGroup: number,
  ) {
    this.rowCount = rows.length / ROW_FIELDS;
    this.rows = rows.data;
  }

  private readonly rows: Uint32Array;

  /** The subtask whose stream the run is from (StateEntry.subtask of its entries). */
  get subtask(): number {
    return this.d.input.subtask;
  }

  *[Symbol.iterator](): Iterator<StateEntry> {
    for (let i = 0; i < this.rowCount; i++) if (this.isRowWanted(i)) yield this.decodeRow(i);
  }

  isRowWanted(i: number): boolean {
    return this.d.wanted === undefined || this.d.wanted.has(this.rows[i * ROW_FIELDS]!);
  }

  planOf(i: number): KeyedDecodePlan {
    const stateId = this.rows[i * ROW_FIELDS]!;
    let plan = this.d.plans.get(stateId);
    if (!plan) {
      plan = planKeyedDecode(this.d.header.states[stateId]!, this.d.header.keySerializer, this.d.input.maxParallelism);
      this.d.plans.set(stateId, plan);
    }
    return plan;
  }

  /** The state name of row i. */
  stateOf(i: number): string {
    return this.planOf(i).state.name;
  }

  /** Where row i's value bytes start and end in `bytes`. */
  valueStart(i: number): number {
    return this.rows[i * ROW_FIELDS + 3]!;
  }
  valueEnd(i: number): number {
    return this.rows[i * ROW_FIELDS + 4]!;
  }

  /**
   * The serializer of row i's value when the value is one serialized value of it (VALUE, REDUCING,
   * AGGREGATING, … states; not LIST or MAP values, not PRIORITY_QUEUE elements, which are keys).
   */
  singleValueSerializerOf(i: number): SerializerSnapshot | undefined {
    const plan = this.planOf(i);
    const kind = plan.state.kind;
    return kind === 'LIST' || kind === 'MAP' || kind === 'PRIORITY_QUEUE' ? undefined : plan.value;
  }

  /**
   * The wanted rows in order, for a scan that reads some values in place: `readerOf` tells from the
   * codec of a row's single value serializer (singleValueSerializerOf) what reads it in place (looked up
   * once per run of one state); a row with such a reader and a key that checks in place (checkRowKey)
   * goes to `onRow`, every other row is decoded (decodeRow) and goes to `onEntry`. Either returns false
   * to stop; walkRows then returns false. Same rows, order and errors as iterating the run.
   */
  walkRows<R>(
    readerOf: (codec: ValueCodec | undefined) => R | undefined,
    onEntry: (e: StateEntry) => boolean | void,
    onRow: (i: number, reader: R) => boolean | void,
  ): boolean {
    let lastStateId = -1;
    let reader: R | undefined;
    for (let i = 0; i < this.rowCount; i++) {
      if (!this.isRowWanted(i)) continue;
      const stateId = this.rows[i * ROW_FIELDS]!;
      if (stateId !== lastStateId) {
        lastStateId = stateId;
        reader = readerOf(this.singleValueSerializerOf(i)?.codec);
      }
      const go = reader === undefined || !this.checkRowKey(i) ? onEntry(this.decodeRow(i)) : onRow(i, reader);
      if (go === false) return false;
    }
    return true;
  }

  /**
   * True when decoding row i's key side (decodeKeyedEntryKeyInto) surely succeeds and has no side
   * effects: the key-group prefix matches, and the key and namespace serializers' codecs can skip
   * them (ValueCodec.skip); false when only decoding can tell (it may throw the stream's error).
   */
  checkRowKey(i: number): boolean {
    const at = i * ROW_FIELDS;
    const stateId = this.rows[at]!;
    const checks = (this.d.keyChecks ??= []);
    let check = checks[stateId];
    if (check === undefined) checks[stateId] = check = this.planKeyCheck(i);
    if (check === null) return false;
    const bytes = this.bytes;
    let pos = this.rows[at + 1]!;
    const end = this.rows[at + 2]!;
    // the end-of-run flag sits on the first prefix byte (key groups stay below 0x8000)
    let prefix = bytes[pos++]! & ~END_OF_STATE_RUN_FLAG;
    if (check.prefixBytes === 2) prefix = prefix * 256 + bytes[pos++]!;
    if (prefix !== this.keyGroup) return false;
    pos = check.skipKey(bytes, pos, end);
    return pos >= 0 && check.skipNamespace(bytes, pos, end) >= 0;
  }

  /** How checkRowKey checks the keys of row i's state, or null when only decoding can tell. */
  private planKeyCheck(i: number): RowKeyCheck | null {
    const plan = this.planOf(i);
    if (plan.state.kind === 'PRIORITY_QUEUE' || plan.state.kind === 'MAP' || plan.ambiguousKeyLengths) return null;
    const skipKey = codecOf(plan.keySerializer)?.skip;
    const skipNamespace = codecOf(plan.namespace)?.skip;
    return skipKey === undefined || skipNamespace === undefined ? null : { prefixBytes: plan.keyGroupPrefixBytes, skipKey, skipNamespace };
  }

  /** Row i as the iterator gives it: the whole entry decoded (throws the stream's error where the entry is corrupt). */
  decodeRow(i: number): StateEntry {
    const plan = this.planOf(i);
    const at = i * ROW_FIELDS;
    const valueStart = this.rows[at + 3]!;
    const value = this.bytes.subarray(valueStart, this.rows[at + 4]!);
    const { key, keyOffset } = this.keyBytesOf(i);
    const valueOffset = this.baseOffset + valueStart;
    // one object per entry, in StateEntry's property order (the decoded parts are written into it)
    const entry = decodeKeyedEntryInto(
      { operatorId: this.d.input.operatorId, state: plan.state.name, subtask: this.d.input.subtask },
      plan,
      new ByteReader(key, { file: this.file, baseOffset: keyOffset }),
      new ByteReader(value, { file: this.file, baseOffset: valueOffset }),
      this.keyGroup,
      this.d.values?.mode,
    ) as StateEntry;
    entry.file = this.file;
    entry.keyRange = { offset: keyOffset, length: key.length };
    entry.valueRange = { offset: valueOffset, length: value.length };
    return entry;
  }

  /** Row i's key side only (key, namespace, user key), as decodeRow gives them; for display. */
  decodeRowKey(i: number): DecodedKeyedEntry {
    const { key, keyOffset } = this.keyBytesOf(i);
    return decodeKeyedEntryKeyInto({}, this.planOf(i), new ByteReader(key, { file: this.file, baseOffset: keyOffset }), this.keyGroup);
  }

  /** The key bytes with the end-of-run flag cleared (a copy when it was set). */
  private keyBytesOf(i: number): { key: Uint8Array; keyOffset: number } {
    const at = i * ROW_FIELDS;
    const keyStart = this.rows[at + 1]!;
    let key = this.bytes.subarray(keyStart, this.rows[at + 2]!);
    if ((key[0]! & END_OF_STATE_RUN_FLAG) !== 0) {
      key = key.slice();
      key[0] = key[0]! & ~END_OF_STATE_RUN_FLAG;
    }
    return { key, keyOffset: this.baseOffset + keyStart };
  }
}
