/**
 * Key groups (Flink's `KeyGroupRangeAssignment` and `MathUtils.murmurHash`): which key
 * group a key hashes to, which subtask owns a key group, and the default max parallelism.
 */
import { computeJavaHashCode, type JavaKey } from './compute-key-group-java-hash-code';
import type { KeyGroupRange } from '../metadata/metadata-types';

export const DEFAULT_LOWER_BOUND_MAX_PARALLELISM = 128;
export const UPPER_BOUND_MAX_PARALLELISM = 32768;

/** Flink's `MathUtils.murmurHash(int)`: a 32-bit murmur3 mix of one int, made non-negative. */
export function computeMurmurHashOfInt(code: number): number {
  let h = Math.imul(code | 0, 0xcc9e2d51);
  h = rotl32(h, 15);
  h = Math.imul(h, 0x1b873593);
  h = rotl32(h, 13);
  h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  h ^= 4;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  if (h >= 0) return h;
  return h !== -0x80000000 ? -h : 0;
}

/** `murmurHash(hashCode) % maxParallelism`. */
export function computeKeyGroupForHashCode(hashCode: number, maxParallelism: number): number {
  checkMaxParallelism(maxParallelism);
  return computeMurmurHashOfInt(hashCode) % maxParallelism;
}

/** Key group of a key given as a typed Java value (its Java `hashCode()` is computed here). */
export function computeKeyGroup(key: JavaKey, maxParallelism: number): number {
  return computeKeyGroupForHashCode(computeJavaHashCode(key), maxParallelism);
}

/** Subtask that owns `keyGroup`: `keyGroup * parallelism / maxParallelism` (integer division). */
export function computeOwningSubtask(keyGroup: number, parallelism: number, maxParallelism: number): number {
  checkParallelism(parallelism, maxParallelism);
  if (!Number.isInteger(keyGroup) || keyGroup < 0 || keyGroup >= maxParallelism) {
    throw new RangeError(`key group must be in [0, ${maxParallelism}), got ${keyGroup}`);
  }
  return Math.floor((keyGroup * parallelism) / maxParallelism);
}

/** Key groups owned by subtask `index`: `[ceil(i*m/p), floor(((i+1)*m − 1)/p)]`. */
export function computeKeyGroupRangeForSubtask(index: number, parallelism: number, maxParallelism: number): KeyGroupRange {
  checkParallelism(parallelism, maxParallelism);
  if (!Number.isInteger(index) || index < 0 || index >= parallelism) {
    throw new RangeError(`subtask index must be in [0, ${parallelism}), got ${index}`);
  }
  return {
    start: Math.floor((index * maxParallelism + parallelism - 1) / parallelism),
    end: Math.floor(((index + 1) * maxParallelism - 1) / parallelism),
  };
}

/** Max parallelism Flink picks when the user set none: `min(max(roundUpToPowerOfTwo(p + p/2), 128), 32768)`. */
export function computeDefaultMaxParallelism(parallelism: number): number {
  if (!Number.isInteger(parallelism) || parallelism < 1) throw new RangeError(`parallelism must be a positive integer, got ${parallelism}`);
  const wanted = parallelism + Math.floor(parallelism / 2);
  let pow = 1;
  while (pow < wanted) pow *= 2;
  return Math.min(Math.max(pow, DEFAULT_LOWER_BOUND_MAX_PARALLELISM), UPPER_BOUND_MAX_PARALLELISM);
}

function rotl32(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

function checkMaxParallelism(maxParallelism: number): void {
  if (!Number.isInteger(maxParallelism) || maxParallelism < 1 || maxParallelism > UPPER_BOUND_MAX_PARALLELISM) {
    throw new RangeError(`max parallelism must be in [1, ${UPPER_BOUND_MAX_PARALLELISM}], got ${maxParallelism}`);
  }
}

function checkParallelism(parallelism: number, maxParallelism: number): void {
  checkMaxParallelism(maxParallelism);
  if (!Number.isInteger(parallelism) || parallelism < 1 || parallelism > maxParallelism) {
    throw new RangeError(`parallelism must be in [1, ${maxParallelism}], got ${parallelism}`);
  }
}
