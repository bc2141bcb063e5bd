/**
 * Walks a method's bytecode instruction by instruction with the JVM's opcode length table
 * (JVMS §6.5): fixed lengths, `tableswitch` and `lookupswitch` padded to a 4-byte boundary from
 * the start of the code, `wide` (4 bytes, 6 for `wide iinc`). An opcode the JVM does not define or
 * an instruction that runs past the code is a DecodeError at its offset in the class file.
 */
import { DecodeError } from '../io';

/** Length of each opcode's instruction; 0 = variable (switches, wide), -1 = not an opcode. */
const LENGTHS: Int8Array = (() => {
  const t = new Int8Array(256).fill(-1);
  const set = (from: number, to: number, len: number): void => {
    for (let op = from; op <= to; op++) t[op] = len;
  };
  set(0x00, 0x0f, 1); // nop, aconst_null, iconst_*, lconst_*, fconst_*, dconst_*
  t[0x10] = 2; // bipush
  t[0x11] = 3; // sipush
  t[0x12] = 2; // ldc
  set(0x13, 0x14, 3); // ldc_w, ldc2_w
  set(0x15, 0x19, 2); // iload … aload
  set(0x1a, 0x35, 1); // *load_n, *aload
  set(0x36, 0x3a, 2); // istore … astore
  set(0x3b, 0x83, 1); // *store_n, *astore, stack ops, arithmetic
  t[0x84] = 3; // iinc
  set(0x85, 0x98, 1); // conversions, comparisons
  set(0x99, 0xa8, 3); // if*, goto, jsr
  t[0xa9] = 2; // ret
  t[0xaa] = 0; // tableswitch
  t[0xab] = 0; // lookupswitch
  set(0xac, 0xb1, 1); // returns
  set(0xb2, 0xb8, 3); // get/put field/static, invokevirtual/special/static
  t[0xb9] = 5; // invokeinterface
  t[0xba] = 5; // invokedynamic
  t[0xbb] = 3; // new
  t[0xbc] = 2; // newarray
  t[0xbd] = 3; // anewarray
  set(0xbe, 0xbf, 1); // arraylength, athrow
  set(0xc0, 0xc1, 3); // checkcast, instanceof
  set(0xc2, 0xc3, 1); // monitorenter/exit
  t[0xc4] = 0; // wide
  t[0xc5] = 4; // multianewarray
  set(0xc6, 0xc7, 3); // ifnull, ifnonnull
  set(0xc8, 0xc9, 5); // goto_w, jsr_w
  t[0xca] = 1; // breakpoint (reserved)
  set(0xfe, 0xff, 1); // impdep1, impdep2 (reserved)
  return t;
})();

/** Calls `visit(opcode, pc)` for each instruction in order; returns when the code ends. */
export function listInstructions(code: Uint8Array, codeOffset: number, file: string, visit: (opcode: number, pc: number) => void): void {
  let pc = 0;
  while (pc < code.length) {
    const op = code[pc]!;
    const length = instructionLength(code, pc, op);
    if (length < 0) {
      throw new DecodeError({
        code: 'invalid-value',
        detail: `expected a JVM instruction at code offset ${pc}, found ${op === 0xaa || op === 0xab ? `a ${op === 0xaa ? 'tableswitch' : 'lookupswitch'} with a negative case count` : `0x${op.toString(16).padStart(2, '0')}, which is no opcode`}`,
        file,
        offset: codeOffset + pc,
        path: ['class file', 'code'],
      });
    }
    if (pc + length > code.length) {
      throw new DecodeError({
        code: 'truncated',
        detail: `expected ${length} bytes for the instruction 0x${op.toString(16).padStart(2, '0')} at code offset ${pc}, found ${code.length - pc}`,
        file,
        offset: codeOffset + pc,
        path: ['class file', 'code'],
      });
    }
    visit(op, pc);
    pc += length;
  }
}

function instructionLength(code: Uint8Array, pc: number, op: number): number {
  const fixed = LENGTHS[op]!;
  if (fixed !== 0) return fixed;
  if (op === 0xc4) return code[pc + 1] === 0x84 ? 6 : 4; // wide iinc / wide load, store, ret
  const base = pc + 1 + ((4 - ((pc + 1) % 4)) % 4);
  const s32 = (at: number): number => (at + 4 <= code.length ? (code[at]! << 24) | (code[at + 1]! << 16) | (code[at + 2]! << 8) | code[at + 3]! : Number.NaN);
  if (op === 0xaa) {
    const low = s32(base + 4);
    const high = s32(base + 8);
    if (Number.isNaN(low) || Number.isNaN(high) || high < low) return Number.isNaN(high) ? code.length - pc + 1 : -1;
    return base - pc + 12 + (high - low + 1) * 4;
  }
  const pairs = s32(base + 4);
  if (Number.isNaN(pairs)) return code.length - pc + 1;
  if (pairs < 0) return -1;
  return base - pc + 8 + pairs * 8;
}
