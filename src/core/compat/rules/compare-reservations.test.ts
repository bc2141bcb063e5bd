import { describe, expect, it } from 'vitest';
import { compareReservations, isNumberReserved, type Reservations } from './compare-reservations';
import type { DeclarationIndex } from '../descriptors/index-declarations';
import { createWalkContext } from './walk-context';

const none = {} as DeclarationIndex;
const message = (ranges: [number, number][], names: string[] = []): Reservations => ({
  ranges: ranges.map(([start, end]) => ({ start, end })),
  names,
  endExclusive: true,
});

function compare(saved: Reservations, next: Reservations): string[] {
  const ctx = createWalkContext(none, none);
  compareReservations(ctx, 'example.Event', saved, next);
  return ctx.findings.map((f) => `${f.ruleId} ${f.message}`);
}

describe('compareReservations', () => {
  it('a range split on one side and merged (overlapping, adjacent, nested, in any order) on the other is the same reservation', () => {
    const split = message([
      [9, 12],
      [5, 7],
      [7, 9],
      [6, 8],
    ]);
    const merged = message([
      [5, 12],
      [6, 7],
    ]);
    expect(compare(split, merged)).toEqual([]);
    expect(compare(merged, split)).toEqual([]);
  });

  it('a gap is a removed (or added) reservation; names are compared as sets', () => {
    expect(
      compare(
        message([[5, 12]], ['a', 'b']),
        message(
          [
            [5, 8],
            [9, 12],
          ],
          ['b'],
        ),
      ),
    ).toEqual(['RESERVATION_REMOVED Reserved range 5 to 11 of example.Event is removed', 'RESERVATION_REMOVED Reserved name "a" of example.Event is removed']);
    expect(
      compare(
        message([[5, 8]]),
        message([
          [5, 8],
          [20, 21],
        ]),
      ),
    ).toEqual(['RESERVATION_ADDED Reserved number 20 is added to example.Event']);
  });

  it('enum ranges are inclusive', () => {
    const e = (ranges: [number, number][]): Reservations => ({ ranges: ranges.map(([start, end]) => ({ start, end })), names: [], endExclusive: false });
    expect(
      compare(
        e([[1, 3]]),
        e([
          [1, 1],
          [2, 3],
        ]),
      ),
    ).toEqual([]);
    expect(isNumberReserved(3, e([[1, 3]]))).toBe(true);
    expect(isNumberReserved(3, message([[1, 3]]))).toBe(false);
  });

  it('100,000 reserved ranges on both sides: every lookup is a binary search', () => {
    const many = message(Array.from({ length: 100_000 }, (_, i): [number, number] => [1000 + 2 * i, 1001 + 2 * i]));
    expect(compare(many, many)).toEqual([]);
    expect(isNumberReserved(1000 + 2 * 99_999, many)).toBe(true);
    expect(isNumberReserved(1001 + 2 * 99_999, many)).toBe(false);
    // (quadratic took minutes: tests/robustness/fuzz-descriptor-sets.test.ts bounds such cases in time)
  });
});
