import { describe, expect, it } from 'vitest';
import {
  computeDefaultMaxParallelism,
  computeKeyGroup,
  computeKeyGroupForHashCode,
  computeKeyGroupRangeForSubtask,
  computeMurmurHashOfInt,
  computeOwningSubtask,
} from './compute-key-group';
import { computeJavaHashCode, convertDecodedValueToJavaKey, type JavaKey } from './compute-key-group-java-hash-code';

const tuple1 = (f: JavaKey): JavaKey => ({ kind: 'tuple', fields: [f] });

describe('computeKeyGroup (verified vectors)', () => {
  it('puts Tuple1<Integer> keys 0..9 into key groups 94, 86, 127, 113, 7, 126, 18, 113, 15, 51 at max parallelism 128', () => {
    const groups = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((k) => computeKeyGroup(tuple1({ kind: 'int', value: k }), 128));
    expect(groups).toEqual([94, 86, 127, 113, 7, 126, 18, 113, 15, 51]);
  });
  it('puts Tuple1<Long> keys 0..3 into 2, 2, 3, 1 at max parallelism 4', () => {
    expect([0n, 1n, 2n, 3n].map((k) => computeKeyGroup(tuple1({ kind: 'long', value: k }), 4))).toEqual([2, 2, 3, 1]);
  });
  it('puts Integer keys 0..3 into 14, 6, 15, 1 at max parallelism 16', () => {
    expect([0, 1, 2, 3].map((k) => computeKeyGroup({ kind: 'int', value: k }, 16))).toEqual([14, 6, 15, 1]);
  });
  it('maps a murmur mix of Integer.MIN_VALUE to 0 (hash code -2089875627 → key group 0 at max parallelism 100)', () => {
    // MathUtils.murmurHash: `if (code >= 0) return code; else if (code != Integer.MIN_VALUE) return -code; else return 0;`
    // -2089875627 is a hash code whose mix is exactly Integer.MIN_VALUE (checked with Java 17 on Flink's code).
    // At 100 a wrong answer shows: 2^31 % 100 = 48, (-2^31) % 100 = -48 (at a power of two both would be 0)
    expect(computeMurmurHashOfInt(-2089875627)).toBe(0);
    expect(computeKeyGroupForHashCode(-2089875627, 100)).toBe(0);
    expect(computeKeyGroup({ kind: 'int', value: -2089875627 }, 100)).toBe(0);
    expect(computeKeyGroup({ kind: 'int', value: -2089875627 }, 7)).toBe(0);
  });
  it('maps negative mixes to their negation and negative hash codes into [0, m)', () => {
    // raw mixes (Java 17): -1 → 1982413648, -2147483648 → -1718298732, 2147483647 → -1653689534, 123456789 → -1088346449
    expect([-1, -2147483648, 2147483647, 123456789].map(computeMurmurHashOfInt)).toEqual([1982413648, 1718298732, 1653689534, 1088346449]);
    expect([-1, -2147483648, 2147483647, 123456789].map((c) => computeKeyGroupForHashCode(c, 100))).toEqual([48, 32, 34, 49]);
  });
  it('rejects a max parallelism outside [1, 32768]', () => {
    expect(() => computeKeyGroupForHashCode(1, 0)).toThrow('max parallelism must be in [1, 32768], got 0');
    expect(() => computeKeyGroupForHashCode(1, 32769)).toThrow('max parallelism must be in [1, 32768], got 32769');
  });
});

describe('computeJavaHashCode (values from Java 17)', () => {
  it('matches Integer, Short, Byte, Long, Boolean and Character', () => {
    expect(computeJavaHashCode({ kind: 'int', value: -7 })).toBe(-7);
    expect(computeJavaHashCode({ kind: 'short', value: -5 })).toBe(-5);
    expect(computeJavaHashCode({ kind: 'byte', value: -128 })).toBe(-128);
    expect(computeJavaHashCode({ kind: 'long', value: -1n })).toBe(0);
    expect(computeJavaHashCode({ kind: 'long', value: -(2n ** 63n) })).toBe(-2147483648);
    expect(computeJavaHashCode({ kind: 'long', value: 1234567890123n })).toBe(1912276436);
    expect(computeJavaHashCode({ kind: 'boolean', value: true })).toBe(1231);
    expect(computeJavaHashCode({ kind: 'boolean', value: false })).toBe(1237);
    expect(computeJavaHashCode({ kind: 'char', value: '€' })).toBe(8364);
  });
  it('matches String over UTF-16 code units with int32 overflow', () => {
    expect(computeJavaHashCode({ kind: 'string', value: 'größe-zähler' })).toBe(1908193943);
    expect(computeJavaHashCode({ kind: 'string', value: 'Here be dragons!' })).toBe(1077336718);
    expect(computeJavaHashCode({ kind: 'string', value: '😀x' })).toBe(54959989);
    expect(computeJavaHashCode({ kind: 'string', value: 'a much longer string to force int overflow many times' })).toBe(-705496636);
  });
  it('matches Double and Float through doubleToLongBits / floatToIntBits (canonical NaN, -0.0)', () => {
    expect(computeJavaHashCode({ kind: 'double', value: 1.5 })).toBe(1073217536);
    expect(computeJavaHashCode({ kind: 'double', value: -0 })).toBe(-2147483648);
    expect(computeJavaHashCode({ kind: 'double', value: NaN })).toBe(2146959360);
    expect(computeJavaHashCode({ kind: 'double', value: 3.14159 })).toBe(-1340954729);
    expect(computeJavaHashCode({ kind: 'float', value: 1.5 })).toBe(1069547520);
    expect(computeJavaHashCode({ kind: 'float', value: NaN })).toBe(2143289344);
  });
  it('folds tuples as Flink TupleN.hashCode: 31 * h + f_i, null fields hash to 0', () => {
    expect(
      computeJavaHashCode({
        kind: 'tuple',
        fields: [
          { kind: 'string', value: 'a' },
          { kind: 'long', value: 7n },
        ],
      }),
    ).toBe(3014);
    expect(computeJavaHashCode({ kind: 'tuple', fields: [{ kind: 'int', value: 5 }, null, { kind: 'string', value: 'z' }] })).toBe(4927);
  });
  it('converts decoded key values (Tuple1<Long>) and refuses types without a known hashCode', () => {
    const key = convertDecodedValueToJavaKey({ kind: 'tuple', className: 'org.apache.flink.api.java.tuple.Tuple1', fields: [{ kind: 'long', value: '3' }] });
    expect(key).toEqual({ kind: 'tuple', fields: [{ kind: 'long', value: 3n }] });
    expect(computeKeyGroup(key!, 4)).toBe(1);
    expect(convertDecodedValueToJavaKey({ kind: 'bytes', length: 1, base64: 'AA==' })).toBeUndefined();
  });
});

describe('subtask ↔ key groups', () => {
  it('splits 128 key groups over 4 subtasks as Flink does', () => {
    expect([0, 1, 2, 3].map((i) => computeKeyGroupRangeForSubtask(i, 4, 128))).toEqual([
      { start: 0, end: 31 },
      { start: 32, end: 63 },
      { start: 64, end: 95 },
      { start: 96, end: 127 },
    ]);
    expect([0, 1, 2].map((i) => computeKeyGroupRangeForSubtask(i, 3, 10))).toEqual([
      { start: 0, end: 3 },
      { start: 4, end: 6 },
      { start: 7, end: 9 },
    ]);
  });
  it('gives the owning subtask consistently with the ranges (p=3, m=10 and p=4, m=4)', () => {
    for (let g = 0; g < 10; g++) {
      const owner = computeOwningSubtask(g, 3, 10);
      const r = computeKeyGroupRangeForSubtask(owner, 3, 10);
      expect(g >= r.start && g <= r.end, `kg ${g}`).toBe(true);
    }
    // README: key groups 1, 2, 3 of the p=4/m=4 savepoints live in subtasks 1, 2, 3; subtask 0 (kg 0) has no state
    expect([0, 1, 2, 3].map((g) => computeOwningSubtask(g, 4, 4))).toEqual([0, 1, 2, 3]);
  });
  it('rejects out-of-range subtasks and key groups', () => {
    expect(() => computeOwningSubtask(128, 4, 128)).toThrow('key group must be in [0, 128), got 128');
    expect(() => computeKeyGroupRangeForSubtask(4, 4, 128)).toThrow('subtask index must be in [0, 4), got 4');
    expect(() => computeOwningSubtask(0, 5, 4)).toThrow('parallelism must be in [1, 4], got 5');
  });
  it('computes the default max parallelism', () => {
    expect(computeDefaultMaxParallelism(1)).toBe(128);
    expect(computeDefaultMaxParallelism(100)).toBe(256);
    expect(computeDefaultMaxParallelism(86)).toBe(256);
    expect(computeDefaultMaxParallelism(85)).toBe(128);
    expect(computeDefaultMaxParallelism(30000)).toBe(32768);
    expect(() => computeDefaultMaxParallelism(0)).toThrow('parallelism must be a positive integer, got 0');
  });
});
