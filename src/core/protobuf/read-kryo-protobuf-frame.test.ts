import { describe, expect, it } from 'vitest';
import { ByteReader, isDecodeError } from '../io';
import { readKryoFrameHeader, readKryoProtobufFrame } from './read-kryo-protobuf-frame';

const EXPECT = { javaClass: 'a.Event', registrationId: 85, registrationNote: 'registration 1 of 2' };
const ascii = (s: string) => [...s].map((c, i) => c.charCodeAt(0) | (i === s.length - 1 ? 0x80 : 0));

describe('readKryoFrameHeader', () => {
  it('reads a registered class (varint id + 2), the reference marker and chill’s varint length', () => {
    expect(readKryoFrameHeader(new Uint8Array([0x57, 0x01, 0x03, 8, 1, 9]), 0, 6, EXPECT, 100)).toEqual({
      kind: 'frame',
      payloadStart: 3,
      length: 3,
      javaClass: 'a.Event',
    });
    // a two-byte length varint
    expect(readKryoFrameHeader(new Uint8Array([0x57, 0x01, 0x96, 0x01]), 0, 4, EXPECT, 1000)).toMatchObject({ payloadStart: 4, length: 150 });
  });

  it('reads a class written by name, ASCII and UTF-8-length forms', () => {
    const byAscii = new Uint8Array([0x01, 0x00, ...ascii('x.Y$Z'), 0x01, 0x00]);
    expect(readKryoFrameHeader(byAscii, 0, byAscii.length, EXPECT, 100)).toEqual({
      kind: 'frame',
      payloadStart: byAscii.length,
      length: 0,
      javaClass: 'x.Y$Z',
    });
    // 0x80 | (chars + 1): a flagged UTF-8 char count, then the chars
    const utf = new Uint8Array([0x01, 0x00, 0x80 | 4, 0x61, 0x2e, 0xc3, 0xa9, 0x01, 0x02, 8, 1]);
    expect(readKryoFrameHeader(utf, 0, utf.length, EXPECT, 100)).toEqual({ kind: 'frame', payloadStart: 9, length: 2, javaClass: 'a.é' });
  });

  it('reads null (class id 0, or reference marker 0)', () => {
    expect(readKryoFrameHeader(new Uint8Array([0x00, 0xff]), 0, 2, EXPECT, 100)).toEqual({ kind: 'null', end: 1 });
    expect(readKryoFrameHeader(new Uint8Array([0x57, 0x00]), 0, 2, EXPECT, 100)).toEqual({ kind: 'null', end: 2 });
  });

  it('says what it expected and found', () => {
    expect(readKryoFrameHeader(new Uint8Array([0x58, 0x01, 0x00]), 0, 3, EXPECT, 100)).toEqual({
      kind: 'error',
      at: 0,
      message: 'expected Kryo registration id 85 of a.Event (registration 1 of 2), found Kryo registration id 86',
    });
    expect(readKryoFrameHeader(new Uint8Array([0x57, 0x02, 0x00]), 0, 3, EXPECT, 100)).toEqual({
      kind: 'error',
      at: 1,
      message: 'expected the Kryo reference marker 1 (a new object), found 2 (a back-reference)',
    });
    expect(readKryoFrameHeader(new Uint8Array([0x57, 0x01, 0x65]), 0, 3, EXPECT, 100)).toEqual({
      kind: 'error',
      at: 2,
      message: 'expected a payload length of at most 100, found 101',
    });
    expect(readKryoFrameHeader(new Uint8Array([0x57, 0x01]), 0, 2, EXPECT, 100)).toMatchObject({ kind: 'error', at: 2 });
    expect(readKryoFrameHeader(new Uint8Array([0x57]), 0, 1, { javaClass: 'a.Event' }, 100)).toEqual({
      kind: 'error',
      at: 0,
      message: 'expected a.Event written by name (class id 1), found Kryo registration id 85',
    });
  });

  it('reads its varints as Kryo writes them: at most 5 bytes and 32 bits; a UTF-8 name length of at most 4 more bytes, the last whole', () => {
    const tooLong = [0x80, 0x80, 0x80, 0x80, 0x80, 0x01];
    const endOfValue = 'expected a Kryo class id (varint), found the end of the value';
    expect(readKryoFrameHeader(Uint8Array.from(tooLong), 0, 6, EXPECT, 100)).toEqual({ kind: 'error', at: 0, message: endOfValue });
    expect(readKryoFrameHeader(Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x10]), 0, 5, EXPECT, 100)).toEqual({ kind: 'error', at: 0, message: endOfValue });
    expect(readKryoFrameHeader(Uint8Array.from([0x57, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f]), 0, 7, EXPECT, 2 ** 32)).toMatchObject({
      kind: 'frame',
      length: 2 ** 32 - 1,
      payloadStart: 7,
    });
    // class 1 (by name), name id 1, a UTF-8 name of 1 char (count + 1 = 2 = 0x02 + 0 * 64) whose length's next 4 bytes are 0x80: the fourth ends it
    const utf = [0x01, 0x01, 0xc2, 0x80, 0x80, 0x80, 0x80, 0x41, 0x01, 0x00];
    expect(readKryoFrameHeader(Uint8Array.from(utf), 0, utf.length, { javaClass: 'A', contentFor: () => undefined }, 100)).toEqual({
      kind: 'frame',
      payloadStart: 10,
      length: 0,
      javaClass: 'A',
    });
    expect(readKryoFrameHeader(Uint8Array.from(utf), 0, 5, { javaClass: 'A' }, 100)).toEqual({
      kind: 'error',
      at: 2,
      message: 'expected a Kryo class name (string), found bytes that are not one',
    });
  });
});

describe('readKryoProtobufFrame', () => {
  it('returns the payload with absolute offsets and advances past it', () => {
    const r = new ByteReader(new Uint8Array([0xee, 0x57, 0x01, 0x02, 8, 1, 0xdd]), { file: 'f', baseOffset: 100 });
    r.skip(1);
    const frame = readKryoProtobufFrame(r, EXPECT, 100)!;
    expect([frame.frameOffset, frame.payloadOffset, frame.length, [...frame.payload], frame.missing, frame.javaClass]).toEqual([
      101,
      104,
      2,
      [8, 1],
      0,
      'a.Event',
    ]);
    expect(r.readU8()).toBe(0xdd);
  });

  it('throws a located DecodeError naming the class', () => {
    const r = new ByteReader(new Uint8Array([0x00, 0x59, 0x01]), { file: 'f', baseOffset: 100 });
    expect(readKryoProtobufFrame(r, EXPECT, 100)).toBeNull();
    let error: unknown;
    try {
      readKryoProtobufFrame(r, EXPECT, 100);
    } catch (e) {
      error = e;
    }
    expect(isDecodeError(error)).toBe(true);
    expect((error as { detail: string; offset: number; file: string }).detail).toBe(
      'Kryo value of a.Event: expected Kryo registration id 85 of a.Event (registration 1 of 2), found Kryo registration id 87',
    );
    expect((error as { offset: number }).offset).toBe(101);
  });
});
