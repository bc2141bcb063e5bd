import { expect } from 'vitest';

const hex = (b: number | undefined): string => (b === undefined ? 'end' : `0x${b.toString(16).padStart(2, '0')}`);

/**
 * Where two byte arrays differ: undefined when they hold the same bytes, otherwise the first differing
 * offset with both bytes there and both lengths. Compared with memcmp (Buffer.equals): `toEqual` on
 * arrays of megabytes walks them element by element and takes seconds, tens of seconds on a busy machine.
 */
export function describeByteDifference(actual: Uint8Array, expected: Uint8Array): string | undefined {
  const a = Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength);
  const e = Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength);
  if (a.equals(e)) return undefined;
  let i = 0;
  const n = Math.min(a.length, e.length);
  while (i < n && a[i] === e[i]) i++;
  return `first difference at offset ${i} (0x${i.toString(16)}): ${hex(a[i])}, expected ${hex(e[i])} (lengths ${a.length} and ${e.length})`;
}

/** Asserts the same bytes, failing with the first differing offset instead of a diff of two huge arrays. */
export function expectSameBytes(actual: Uint8Array, expected: Uint8Array, label?: string): void {
  const difference = describeByteDifference(actual, expected);
  // expect.fail, not expect(difference).toBeUndefined(): that would shorten the description in its message
  if (difference !== undefined) expect.fail(label === undefined ? difference : `${label}: ${difference}`);
}
