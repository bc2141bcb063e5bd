/**
 * Byte mutations and the per-file plan: truncations (every offset of a small file, a seeded sample
 * of a large one), single bit flips, 4-byte length/count fields overwritten with hostile values,
 * zero-length files. Each mutation has a stable label so a failing case can be named and replayed.
 */
import type { SeededRandom } from './seeded-random';

export interface ByteMutation {
  /** e.g. `truncate@120`, `flip@57.3`, `i32@88=0x7fffffff`, `empty` */
  label: string;
  apply(bytes: Uint8Array): Uint8Array;
}

export interface MutationBudget {
  /** files up to this size are truncated at every offset */
  truncateAllUpTo: number;
  /** otherwise this many seeded truncation offsets (plus 0, 4 and size-1) */
  truncations: number;
  bitFlips: number;
  /** how many plausible length/count positions get overwritten */
  lengthFields: number;
  /** hostile values written at each chosen position (all of them, or one seeded pick when 1) */
  valuesPerField: number;
}

/** Hostile 4-byte values: 2^31-1, -2^31, -1, -2. */
export const HOSTILE_I32 = [0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe] as const;

export function truncateAt(offset: number): ByteMutation {
  return { label: `truncate@${offset}`, apply: (b) => b.slice(0, offset) };
}

export function flipBit(offset: number, bit: number): ByteMutation {
  return {
    label: `flip@${offset}.${bit}`,
    apply: (b) => {
      const out = b.slice();
      out[offset] = out[offset]! ^ (1 << bit);
      return out;
    },
  };
}

export function overwriteI32(offset: number, value: number): ByteMutation {
  return {
    label: `i32@${offset}=0x${(value >>> 0).toString(16).padStart(8, '0')}`,
    apply: (b) => {
      const out = b.slice();
      new DataView(out.buffer, out.byteOffset, out.byteLength).setUint32(offset, value >>> 0);
      return out;
    },
  };
}

export const EMPTY_FILE: ByteMutation = { label: 'empty', apply: () => new Uint8Array(0) };

/**
 * Positions that look like a big-endian length or count: a non-zero value with a zero high byte that
 * does not exceed the bytes after it (so truly the shape of the savepoint's i32 length/count fields).
 */
export function findLengthLikeFields(bytes: Uint8Array): number[] {
  const out: number[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let p = 0; p + 4 <= bytes.length; p++) {
    if (bytes[p] !== 0) continue;
    const v = view.getInt32(p);
    if (v > 0 && v <= bytes.length - p - 4) out.push(p);
  }
  return out;
}

export function planFileMutations(bytes: Uint8Array, budget: MutationBudget, rng: SeededRandom): ByteMutation[] {
  const size = bytes.length;
  const out: ByteMutation[] = [];
  if (size === 0) return out;
  const cuts =
    size <= budget.truncateAllUpTo
      ? rng.sample(size, size)
      : [...new Set([0, Math.min(4, size - 1), size - 1, ...rng.sample(size, budget.truncations)])].sort((a, b) => a - b);
  for (const c of cuts) out.push(truncateAt(c));
  for (const p of rng.sample(size * 8, budget.bitFlips)) out.push(flipBit(p >> 3, p & 7));
  const fields = findLengthLikeFields(bytes);
  for (const i of rng.sample(fields.length, budget.lengthFields)) {
    const values =
      budget.valuesPerField >= HOSTILE_I32.length
        ? HOSTILE_I32
        : Array.from({ length: budget.valuesPerField }, () => HOSTILE_I32[rng.int(HOSTILE_I32.length)]!);
    for (const v of new Set(values)) out.push(overwriteI32(fields[i]!, v));
  }
  return out;
}
