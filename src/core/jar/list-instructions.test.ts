import { describe, expect, it } from 'vitest';
import { listInstructions } from './list-instructions';
import { u4 } from './write-class-file';

function walk(code: number[]): [number, number][] {
  const out: [number, number][] = [];
  listInstructions(Uint8Array.from(code), 100, 'A.class', (op, pc) => out.push([op, pc]));
  return out;
}

function catchMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

describe('listInstructions', () => {
  it('steps over tableswitch and lookupswitch with their padding to a 4-byte boundary', () => {
    // pc 0: nop; pc 1: tableswitch, padding to 4 (2 bytes), default, low 0, high 1, 2 offsets; then return
    const table = [0x00, 0xaa, 0, 0, ...u4(20), ...u4(0), ...u4(1), ...u4(20), ...u4(20), 0xb1];
    expect(walk(table)).toEqual([
      [0x00, 0],
      [0xaa, 1],
      [0xb1, 24],
    ]);
    // pc 0: lookupswitch, padding 3, default, 2 pairs; then return
    const lookup = [0xab, 0, 0, 0, ...u4(10), ...u4(2), ...u4(1), ...u4(10), ...u4(5), ...u4(10), 0xb1];
    expect(walk(lookup)).toEqual([
      [0xab, 0],
      [0xb1, 28],
    ]);
  });

  it('steps over wide (4 bytes, 6 for wide iinc), invokeinterface, multianewarray and goto_w', () => {
    const code = [0xc4, 0x19, 1, 0, 0xc4, 0x84, 1, 0, 0, 5, 0xb9, 0, 1, 1, 0, 0xc5, 0, 1, 2, 0xc8, 0, 0, 0, 0, 0xb1];
    expect(walk(code).map(([op, pc]) => `${op.toString(16)}@${pc}`)).toEqual(['c4@0', 'c4@4', 'b9@10', 'c5@15', 'c8@19', 'b1@24']);
  });

  it('names an undefined opcode, a negative switch and an instruction past the end', () => {
    expect(catchMessage(() => walk([0x00, 0xcb]))).toBe(
      'expected a JVM instruction at code offset 1, found 0xcb, which is no opcode — at A.class, offset 101 (0x65) [class file / code]',
    );
    expect(catchMessage(() => walk([0xab, 0, 0, 0, ...u4(10), ...u4(-1)]))).toBe(
      'expected a JVM instruction at code offset 0, found a lookupswitch with a negative case count — at A.class, offset 100 (0x64) [class file / code]',
    );
    expect(catchMessage(() => walk([0xb8, 0]))).toBe(
      'expected 3 bytes for the instruction 0xb8 at code offset 0, found 2 — at A.class, offset 100 (0x64) [class file / code]',
    );
  });
});
