/**
 * The merged view of a column family's live table files, as RocksDB's iterator gives it: a k-way
 * merge in internal-key order (user key ascending, then sequence number descending), and per user
 * key the newest version wins: a value, or nothing after a deletion or single deletion (or a range
 * deletion newer than the version), with the merge operands above it combined the way Flink's
 * StringAppendTESTOperator does (its ListState: the older bytes, a ',' delimiter, the newer bytes).
 */
import { DecodeError } from '../../io';
import { compareBytes } from './rocksdb-cursor';
import {
  describeValueType,
  TYPE_DELETION,
  TYPE_DELETION_WITH_TIMESTAMP,
  TYPE_MERGE,
  TYPE_SINGLE_DELETION,
  TYPE_VALUE,
  type RangeTombstone,
} from './open-sst-table';
import { compareUserKeys, END, ENTRY, NEED_BLOCK, type SstTableCursor } from './sst-table-cursor';

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

function isCovered(tombstones: readonly RangeTombstone[], key: Uint8Array, sequence: number): boolean {
  for (const t of tombstones) if (t.sequence > sequence && compareBytes(t.start, key) <= 0 && compareBytes(key, t.end) < 0) return true;
  return false;
}

/**
 * The k-way merge over the tables' cursors, as RocksDB's iterator gives it, allocating nothing per
 * entry: `next()` moves to the next live user key and returns ENTRY, END or NEED_BLOCK (then `await
 * load()` and call again: the only await, once per data block). The current entry is `key[0,
 * keyLength)` and `value[valueStart, valueEnd)` — views into the merge's key buffer and a cursor's block
 * (or, for a merged list value, a buffer of its own) — valid until the next `next()` or `load()`.
 */
export class SstMerge {
  key: Uint8Array = new Uint8Array(64);
  keyLength = 0;
  value: Uint8Array = new Uint8Array(0);
  valueStart = 0;
  valueEnd = 0;
  /** the newest version's file, value offset and key offset */
  file = '';
  valueOffset = 0;
  keyOffset = 0;
  /** how many versions (merge operands and base) made the value */
  versions = 1;

  /** the cursor whose current entry was handed over (moved past on the next call) */
  private held: SstTableCursor | undefined;
  /** the cursors are still to be moved past the versions of the key in `key` */
  private skip = false;
  /** the versions of the key in `key` are being resolved (merge operands copied so far in `operands`) */
  private pending = false;
  private loading: SstTableCursor[] = [];
  private started = false;
  private readonly operands: Uint8Array[] = [];
  private merged: Uint8Array = new Uint8Array(256);

  constructor(
    private readonly cursors: readonly SstTableCursor[],
    private readonly tombstones: readonly RangeTombstone[],
    /** a merged list value in a buffer of the merge reused for the next (else a new array each) */
    private readonly reuse = false,
  ) {}

  /** Reads the blocks the last `next()` needs. */
  async load(): Promise<void> {
    // a cursor whose whole new block lies before the range asks again: appended, and read in this loop
    for (let i = 0; i < this.loading.length; i++) {
      const c = this.loading[i]!;
      if (await c.loadBlock()) this.advance(c);
    }
    this.loading.length = 0;
  }

  /** Moves a cursor to its next entry; one that needs a block waits in `loading`. */
  private advance(c: SstTableCursor): void {
    if (c.next() === NEED_BLOCK) this.loading.push(c);
  }

  next(): number {
    if (!this.started) {
      this.started = true;
      for (const c of this.cursors) this.advance(c);
    }
    if (this.loading.length > 0) return NEED_BLOCK;
    for (;;) {
      if (this.pending) {
        const r = this.resolve(this.sameKey());
        if (r !== END) return r;
        continue;
      }
      // past the older versions of the key handed over (or resolved)
      if (this.skip) {
        const held = this.held;
        if (held !== undefined) {
          this.held = undefined;
          this.advance(held);
          if (this.loading.length > 0) return NEED_BLOCK;
        }
        for (const c of this.cursors) {
          while (c.valid && compareUserKeys(c.key, c.userKeyLength, this.key, this.keyLength) === 0) {
            this.advance(c);
            if (this.loading.length > 0) return NEED_BLOCK;
          }
        }
        this.skip = false;
      }
      const best = this.smallest();
      if (best === undefined) return END;
      // the newest version of the next user key
      const n = best.userKeyLength;
      if (this.key.length < n) this.key = new Uint8Array(Math.max(n, this.key.length * 2));
      const k = this.key;
      const src = best.key;
      for (let i = 0; i < n; i++) k[i] = src[i]!;
      this.keyLength = n;
      if (best.type === TYPE_VALUE && (this.tombstones.length === 0 || !this.covered(best))) {
        this.file = best.file;
        this.keyOffset = best.keyOffset;
        this.valueOffset = best.valueOffset;
        this.value = best.block;
        this.valueStart = best.valueStart;
        this.valueEnd = best.valueEnd;
        this.versions = 1;
        this.held = best;
        this.skip = true;
        return ENTRY;
      }
      // a deletion, a covered version or merge operands: resolved over the versions
      this.pending = true;
    }
  }

  /** The cursor with the smallest internal key (user key ascending, then sequence descending). */
  private smallest(): SstTableCursor | undefined {
    let best: SstTableCursor | undefined;
    for (const c of this.cursors) {
      if (!c.valid) continue;
      if (best === undefined || (compareUserKeys(c.key, c.userKeyLength, best.key, best.userKeyLength) || best.sequence - c.sequence) < 0) best = c;
    }
    return best;
  }

  /** the cursor whose entry is the newest remaining version of the key in `key`, if any */
  private sameKey(): SstTableCursor | undefined {
    const best = this.smallest();
    return best !== undefined && compareUserKeys(best.key, best.userKeyLength, this.key, this.keyLength) === 0 ? best : undefined;
  }

  private covered(c: SstTableCursor): boolean {
    return isCovered(this.tombstones, c.userKey(), c.sequence);
  }

  /**
   * Resolves the versions of the key in `key` from `c` on (newest first): merge operands are copied and
   * the cursors moved past them until a base value, a deletion or the key's end. ENTRY: the merged value
   * is current; END: the key is deleted; NEED_BLOCK: it goes on once the blocks are read.
   */
  private resolve(first: SstTableCursor | undefined): number {
    const operands = this.operands;
    let base: Uint8Array | undefined;
    for (let c = first; c !== undefined; c = this.sameKey()) {
      if (this.tombstones.length > 0 && this.covered(c)) break;
      if (c.type === TYPE_MERGE) {
        if (operands.length === 0) {
          this.file = c.file;
          this.keyOffset = c.keyOffset;
          this.valueOffset = c.valueOffset;
        }
        operands.push(c.value().slice());
        this.advance(c);
        if (this.loading.length > 0) return NEED_BLOCK;
        continue;
      }
      if (c.type === TYPE_VALUE) base = c.value();
      else if (c.type !== TYPE_DELETION && c.type !== TYPE_SINGLE_DELETION && c.type !== TYPE_DELETION_WITH_TIMESTAMP) {
        throw new DecodeError({
          code: 'unsupported-format',
          detail: `expected a value, merge operand or deletion in an SST file of Flink's state, found a ${describeValueType(c.type)}`,
          file: c.file,
          offset: c.valueOffset,
        });
      }
      break;
    }
    this.pending = false;
    this.skip = true;
    if (operands.length === 0) return END;
    // oldest first: the base value, then the operands in the order they were written (the newest was copied first)
    const parts = operands.length;
    let size = (base ? base.length + 1 : 0) + parts - 1;
    for (const o of operands) size += o.length;
    let out = this.reuse ? this.merged : new Uint8Array(size);
    if (out.length < size) out = this.merged = new Uint8Array(Math.max(size, out.length * 2));
    let o = 0;
    if (base) {
      out.set(base, 0);
      out[base.length] = LIST_MERGE_DELIMITER;
      o = base.length + 1;
    }
    for (let i = parts - 1; i >= 0; i--) {
      out.set(operands[i]!, o);
      o += operands[i]!.length;
      if (i > 0) out[o++] = LIST_MERGE_DELIMITER;
    }
    this.value = out;
    this.valueStart = 0;
    this.valueEnd = size;
    this.versions = parts + (base ? 1 : 0);
    operands.length = 0;
    return ENTRY;
  }
}

/** how many merged entries a batch holds at most */
const OUT_BATCH = 512;

/** The merged entries as objects, in batches (keys and values copied: what the tests and tools read). */
export async function* mergeSstEntries(cursors: SstTableCursor[], tombstones: readonly RangeTombstone[], reuse = false): AsyncGenerator<MergedEntry[]> {
  const merge = new SstMerge(cursors, tombstones, reuse);
  let out: MergedEntry[] = [];
  for (;;) {
    const r = merge.next();
    if (r === NEED_BLOCK) {
      await merge.load();
      continue;
    }
    if (r === END) break;
    out.push({
      userKey: merge.key.slice(0, merge.keyLength),
      value: merge.value.slice(merge.valueStart, merge.valueEnd),
      file: merge.file,
      valueOffset: merge.valueOffset,
      keyOffset: merge.keyOffset,
      versions: merge.versions,
    });
    if (out.length >= OUT_BATCH) {
      yield out;
      out = [];
    }
  }
  if (out.length > 0) yield out;
}
