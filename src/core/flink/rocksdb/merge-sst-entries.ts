/**
 * The merged view of a column family's live table files, as RocksDB's iterator gives it: a k-way
 * merge in internal-key order (user key ascending, then sequence number descending), and per user
 * key the newest version wins: a value, or nothing after a deletion or single deletion (or a range
 * deletion newer than the version), with the merge operands above it combined the way Flink's
 * StringAppendTESTOperator does (its ListState: the older bytes, a ',' delimiter, the newer bytes).
 */
import { DecodeError } from '../../io';
import { compareBytes } from './rocksdb-cursor';
import { describeValueType, TYPE_DELETION, TYPE_DELETION_WITH_TIMESTAMP, TYPE_MERGE, TYPE_SINGLE_DELETION, TYPE_VALUE, type InternalEntry, type RangeTombstone } from './open-sst-table';

/** Flink's merge operator: RocksDB's StringAppendTESTOperator with ',' (RocksDBKeyedStateBackend's MERGE_OPERATOR_NAME). */
export const LIST_MERGE_DELIMITER = 0x2c;

export interface MergedEntry {
  userKey: Uint8Array;
  value: Uint8Array;
  /** the newest version's file, value offset and key offset */
  file: string;
  valueOffset: number;
  keyOffset: number;
  /** how many versions (merge operands and base) made the value */
  versions: number;
}

/** Orders internal entries: user key ascending, then sequence number descending. */
function compareInternal(a: InternalEntry, b: InternalEntry): number {
  return compareBytes(a.userKey, b.userKey) || b.sequence - a.sequence;
}

interface Cursor {
  stream: AsyncIterator<InternalEntry[]>;
  batch: InternalEntry[];
  i: number;
  done: boolean;
}

/** Moves a cursor to its next non-empty batch (the only await of the merge: once per data block). */
async function fill(c: Cursor): Promise<void> {
  while (c.i >= c.batch.length && !c.done) {
    const n = await c.stream.next();
    if (n.done) c.done = true;
    else {
      c.batch = n.value;
      c.i = 0;
    }
  }
}

function isCovered(tombstones: readonly RangeTombstone[], key: Uint8Array, sequence: number): boolean {
  for (const t of tombstones) if (t.sequence > sequence && compareBytes(t.start, key) <= 0 && compareBytes(key, t.end) < 0) return true;
  return false;
}

/** how many merged entries a batch holds at most */
const OUT_BATCH = 512;

/**
 * The live user keys and their values across the tables' batch streams (SstTable.batches), in
 * batches: a k-way merge that awaits only when a table's data block is used up.
 */
export async function* mergeSstEntries(streams: AsyncIterator<InternalEntry[]>[], tombstones: readonly RangeTombstone[]): AsyncGenerator<MergedEntry[]> {
  const cursors: Cursor[] = streams.map((stream) => ({ stream, batch: [], i: 0, done: false }));
  for (const c of cursors) await fill(c);
  let out: MergedEntry[] = [];
  let current: InternalEntry[] = [];
  for (;;) {
    let best: Cursor | undefined;
    for (const c of cursors) if (c.i < c.batch.length && (best === undefined || compareInternal(c.batch[c.i]!, best.batch[best.i]!) < 0)) best = c;
    if (best === undefined) break;
    const e = best.batch[best.i++]!;
    if (best.i >= best.batch.length) await fill(best);
    const next = best.i < best.batch.length ? best.batch[best.i] : undefined;
    if (next !== undefined && compareInternal(next, e) < 0) {
      throw new DecodeError({ code: 'invalid-value', detail: 'expected the entries of an SST file in ascending internal-key order, found a key after a larger one', file: next.file, offset: next.keyOffset });
    }
    if (current.length > 0 && compareBytes(current[0]!.userKey, e.userKey) !== 0) {
      const r = resolveVersions(current, tombstones);
      if (r) out.push(r);
      current = [];
      if (out.length >= OUT_BATCH) {
        yield out;
        out = [];
      }
    }
    current.push(e);
  }
  if (current.length > 0) {
    const r = resolveVersions(current, tombstones);
    if (r) out.push(r);
  }
  if (out.length > 0) yield out;
}

/** One user key's versions, newest first, resolved to its value (undefined when deleted). */
function resolveVersions(versions: InternalEntry[], tombstones: readonly RangeTombstone[]): MergedEntry | undefined {
  const operands: InternalEntry[] = [];
  let base: InternalEntry | undefined;
  for (const v of versions) {
    if (tombstones.length > 0 && isCovered(tombstones, v.userKey, v.sequence)) break;
    if (v.type === TYPE_MERGE) {
      operands.push(v);
      continue;
    }
    if (v.type === TYPE_VALUE) base = v;
    else if (v.type !== TYPE_DELETION && v.type !== TYPE_SINGLE_DELETION && v.type !== TYPE_DELETION_WITH_TIMESTAMP) {
      throw new DecodeError({ code: 'unsupported-format', detail: `expected a value, merge operand or deletion in an SST file of Flink's state, found a ${describeValueType(v.type)}`, file: v.file, offset: v.valueOffset });
    }
    break;
  }
  const newest = operands[0] ?? base;
  if (newest === undefined) return undefined;
  if (operands.length === 0) return { userKey: base!.userKey, value: base!.value, file: base!.file, valueOffset: base!.valueOffset, keyOffset: base!.keyOffset, versions: 1 };
  // oldest first: the base value, then the operands in the order they were written
  const parts = [...(base ? [base.value] : []), ...operands.reverse().map((o) => o.value)];
  const size = parts.reduce((n, p) => n + p.length, 0) + parts.length - 1;
  const value = new Uint8Array(size);
  let o = 0;
  parts.forEach((p, i) => {
    if (i > 0) value[o++] = LIST_MERGE_DELIMITER;
    value.set(p, o);
    o += p.length;
  });
  return { userKey: newest.userKey, value, file: newest.file, valueOffset: newest.valueOffset, keyOffset: newest.keyOffset, versions: parts.length };
}
