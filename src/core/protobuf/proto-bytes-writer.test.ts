import { describe, expect, it } from 'vitest';
import { expectSameBytes } from '../../../tests/helpers/expect-same-bytes';
import { ProtoBytesWriter } from './proto-bytes-writer';

/** The reference: the value written on its own, then its length as a varint and the bytes copied. */
function copied(prefix: number[], body: Uint8Array): Uint8Array {
  const w = new ProtoBytesWriter();
  for (const b of prefix) w.varint(b);
  return w.varint(body.length).raw(body).finish();
}

describe('ProtoBytesWriter length written after the value (beginLength/endLength)', () => {
  for (const size of [0, 1, 127, 128, 129, 300, 16383, 16384, 16385, 2_097_151, 2_097_152]) {
    it(`a ${size}-byte value gets the same bytes as length + copy`, () => {
      const body = new Uint8Array(size).map((_, i) => (i * 31 + 7) & 0xff);
      const w = new ProtoBytesWriter();
      w.varint(10).varint(300);
      const at = w.beginLength();
      w.raw(body);
      w.endLength(at);
      // 2 MiB values: compared with memcmp, not toEqual (seconds element by element, tens of seconds under load)
      expectSameBytes(w.finish(), copied([10, 300], body));
    });
  }

  it('nested lengths (an outer value holding a 200-byte inner value and a trailing byte)', () => {
    const inner = new Uint8Array(200).fill(9);
    const w = new ProtoBytesWriter();
    const outer = w.beginLength();
    w.tag(1, 2);
    const at = w.beginLength();
    w.raw(inner);
    w.endLength(at);
    w.varint(5);
    w.endLength(outer);
    const innerRef = new ProtoBytesWriter().tag(1, 2).varint(200).raw(inner).varint(5).finish();
    expect(w.finish()).toEqual(copied([], innerRef));
  });
});
