/** describeOrderChange: the members that moved, each with its new place; none when the order is kept. */
import { describe, expect, it } from 'vitest';
import { describeOrderChange } from './describe-order-change';

const label = (n: number): string => `f${n}`;

describe('describeOrderChange', () => {
  it('is undefined when the order is kept', () => {
    expect(describeOrderChange([1, 2, 3], [1, 2, 3], label)).toBeUndefined();
  });

  it('names one moved member, not both orders', () => {
    expect(describeOrderChange([1, 2, 3, 4], [2, 3, 4, 1], label)).toBe('f1 now comes after f4');
    expect(describeOrderChange([1, 2, 3, 4], [4, 1, 2, 3], label)).toBe('f4 now comes first');
  });

  it('keeps the longest run in saved order and lists at most ten moves', () => {
    const saved = Array.from({ length: 30 }, (_, i) => i + 1);
    const next = [...saved.slice(12), ...saved.slice(0, 12).reverse()]; // 13..30 kept, the 12 others moved behind them in reverse
    expect(describeOrderChange(saved, next, label)).toBe(
      'f12 now comes after f30; f11 now comes after f12; f10 now comes after f11; f9 now comes after f10; f8 now comes after f9; f7 now comes after f8; f6 now comes after f7; f5 now comes after f6; f4 now comes after f5; f3 now comes after f4; and 2 more',
    );
  });
});
