/**
 * ByteReader assembles 8-, 16- and 32-bit big-endian reads from the bytes instead of through a
 * DataView (commit 0e46b55): for any bytes, any position (including inputs that are views into a
 * larger buffer at an odd offset) every read equals DataView's, advances the same, and a read past
 * the end still throws `truncated` before touching any byte, leaving the position where it was.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteReader } from './byte-reader';
import { isDecodeError } from './decode-error';

type Read = 'readI8' | 'readU8' | 'readBool' | 'readI16' | 'readU16' | 'readI32' | 'readU32' | 'readI64' | 'readF32' | 'readF64';
const WIDTH: Record<Read, number> = { readI8: 1, readU8: 1, readBool: 1, readI16: 2, readU16: 2, readI32: 4, readU32: 4, readI64: 8, readF32: 4, readF64: 8 };
const READS = Object.keys(WIDTH) as Read[];

function viaDataView(view: DataView, read: Read, at: number): number | bigint | boolean {
  switch (read) {
    case 'readI8':
      return view.getInt8(at);
    case 'readU8':
      return view.getUint8(at);
    case 'readBool':
      return view.getUint8(at) !== 0;
    case 'readI16':
      return view.getInt16(at);
    case 'readU16':
      return view.getUint16(at);
    case 'readI32':
      return view.getInt32(at);
    case 'readU32':
      return view.getUint32(at);
    case 'readI64':
      return view.getBigInt64(at);
    case 'readF32':
      return view.getFloat32(at);
    case 'readF64':
      return view.getFloat64(at);
  }
}

describe('ByteReader reads against DataView', () => {
  it('gives what DataView gives for every byte pattern, position and read sequence', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 40 }),
        fc.nat({ max: 7 }),
        fc.array(fc.constantFrom(...READS), { maxLength: 24 }),
        (data, pad, reads) => {
          // a view at an odd offset into a larger buffer, as subReader and stream slices make them
          const backing = new Uint8Array(pad + data.length + 3).fill(0xa5);
          backing.set(data, pad);
          const bytes = backing.subarray(pad, pad + data.length);
          const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
          const r = new ByteReader(bytes, { file: 'f', baseOffset: 1000 });
          for (const read of reads) {
            const at = r.position;
            if (at + WIDTH[read] > bytes.length) {
              let thrown: unknown;
              try {
                r[read]();
              } catch (e) {
                thrown = e;
              }
              expect(isDecodeError(thrown) && thrown.code).toBe('truncated');
              expect(isDecodeError(thrown) && thrown.offset).toBe(1000 + at);
              expect(r.position).toBe(at);
              continue;
            }
            expect(Object.is(r[read](), viaDataView(view, read, at)), `${read} at ${at}`).toBe(true);
            expect(r.position).toBe(at + WIDTH[read]);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('covers every 16-bit pattern and the 32-bit sign and byte boundaries exactly', () => {
    const bytes = new Uint8Array(2);
    const view = new DataView(bytes.buffer);
    for (let v = 0; v < 65536; v++) {
      bytes[0] = v >> 8;
      bytes[1] = v & 0xff;
      expect(new ByteReader(bytes).readI16()).toBe(view.getInt16(0));
      expect(new ByteReader(bytes).readU16()).toBe(view.getUint16(0));
      expect(new ByteReader(bytes.subarray(1)).readI8()).toBe(view.getInt8(1));
    }
    const four = new Uint8Array(4);
    const view4 = new DataView(four.buffer);
    const edges = [0, 1, 0x7f, 0x80, 0xfe, 0xff];
    for (const a of edges)
      for (const b of edges)
        for (const c of edges)
          for (const d of edges) {
            four.set([a, b, c, d]);
            expect(Object.is(new ByteReader(four).readI32(), view4.getInt32(0))).toBe(true);
            expect(new ByteReader(four).readU32()).toBe(view4.getUint32(0));
          }
  });

  it('still reads 64-bit and floating-point values after 8- to 32-bit reads, and through subReader and seek', () => {
    const bytes = new Uint8Array([0xff, 0x80, 0x00, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0]);
    const view = new DataView(bytes.buffer);
    const r = new ByteReader(bytes, { file: 'f', baseOffset: 7, path: ['p'] });
    expect(r.readI8()).toBe(-1);
    expect(r.readI16()).toBe(view.getInt16(1));
    const sub = r.subReader(9, 'sub', 's');
    expect(sub.absolutePosition).toBe(10);
    expect(sub.path).toEqual(['p', 's']);
    expect(sub.readU8()).toBe(0x7f);
    expect(sub.readI64()).toBe(view.getBigInt64(4));
    expect(r.readF64()).toBe(1.5);
    r.seek(4);
    expect(r.readI32()).toBe(-1);
    expect(r.readU32()).toBe(0xfffffffe);
  });
});
