/**
 * Small shared reads for `_metadata` state handles: 64-bit file offsets/sizes
 * as safe numbers, key-group ranges, and the nesting depth guard.
 */
import type { ByteReader } from '../../io';
import type { KeyGroupRange } from './metadata-types';

/** Flink's upper bound for max parallelism (= number of key groups), `1 << 15`. */
export const MAX_KEY_GROUPS = 32768;
/** Nested handles (legacy key-group stream handles, changelog handles) deeper than this are rejected. */
export const MAX_HANDLE_DEPTH = 8;

/** Reads an i64 that must be a non-negative safe integer (a file offset or size), or -1 when `allowUnknown`. */
export function readHandleLong(r: ByteReader, what: string, allowUnknown = false): number {
  const at = r.position;
  const v = r.readI64(what);
  const min = allowUnknown ? -1n : 0n;
  if (v < min || v > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw r.error('invalid-value', `expected ${what} between ${min} and 2^53-1, found ${v}`, at);
  }
  return Number(v);
}

/** Reads `i32 start, i32 count` and checks the range lies inside [0, 32768). */
export function readKeyGroupRange(r: ByteReader, what = 'key-group range'): KeyGroupRange {
  const at = r.position;
  const start = r.readI32(`start key group of ${what}`);
  const count = r.readI32(`number of key groups of ${what}`);
  if (start < 0 || count < 0 || start + count > MAX_KEY_GROUPS) {
    throw r.error('invalid-value', `expected a ${what} inside [0, ${MAX_KEY_GROUPS}), found start ${start} and ${count} key groups`, at);
  }
  return { start, end: start + count - 1 };
}

/**
 * Offsets already read in one handle, each with what starts there. Flink writes every key group and
 * every operator state element at an offset of its own; a repeated offset would read (and count)
 * the same bytes again, so a handle that repeats one is refused where the repeat is written.
 */
export type TakenOffsets = Map<number, string>;

/**
 * Reads `count` i64 offsets (count already validated against the bytes left). With `taken`, an
 * offset another one of the same handle already names is refused (0 = no data is exempt where
 * `zeroIsEmpty`, as for key groups).
 */
export function readHandleOffsets(r: ByteReader, count: number, what: string, taken?: TakenOffsets, zeroIsEmpty = false): number[] {
  r.checkCount(count, what, 8);
  const at = r.position;
  const out: number[] = new Array<number>(count);
  for (let i = 0; i < count; i++) out[i] = readHandleLong(r, `${what} #${i}`);
  if (taken !== undefined) checkOffsetsTaken(r, out, at, what, taken, zeroIsEmpty);
  return out;
}

/** Refuses an offset of `offsets` (read as i64s from `at`) that `taken` already holds; adds the others. */
export function checkOffsetsTaken(r: ByteReader, offsets: readonly number[], at: number, what: string, taken: TakenOffsets, zeroIsEmpty = false): void {
  for (let i = 0; i < offsets.length; i++) {
    const v = offsets[i]!;
    if (v === 0 && zeroIsEmpty) continue;
    const first = taken.get(v);
    if (first !== undefined)
      throw r.error(
        'invalid-value',
        `expected ${what} #${i} to start at an offset of its own, found ${v}, where ${first} already starts: a repeated offset would read the same bytes twice`,
        at + 8 * i,
      );
    taken.set(v, `${what} #${i}`);
  }
}

export function checkHandleDepth(r: ByteReader, depth: number, what: string): void {
  if (depth > MAX_HANDLE_DEPTH) {
    throw r.error('limit-exceeded', `expected ${what} nested at most ${MAX_HANDLE_DEPTH} deep, found deeper nesting`);
  }
}
