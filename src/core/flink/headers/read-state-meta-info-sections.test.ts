import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter, DecodeError } from '../../io';
import { resyncToFence } from './read-state-meta-info-sections';

/** A reader over `size` bytes where a 4-byte marker 0xCAFEBABE sits at `at`; parsing "succeeds" at a position holding the marker. */
function setup(size: number, at: number): { r: ByteReader; parse: () => boolean; calls: number[] } {
  const bytes = new Uint8Array(size);
  new DataView(bytes.buffer).setUint32(at, 0xcafebabe);
  const r = new ByteReader(bytes);
  const calls: number[] = [];
  const parse = () => {
    calls.push(r.position);
    if (r.readU32('marker') !== 0xcafebabe) throw new DecodeError({ code: 'invalid-value', detail: 'no marker' });
    r.seek(size);
    return true;
  };
  return { r, parse, calls };
}

describe('resyncToFence', () => {
  it('finds the first position that parses to the fence, and never tries a position remembered as failed', () => {
    const { r, parse, calls } = setup(200, 150);
    const failed = new Set<number>();
    expect(resyncToFence(r, 10, 200, parse, failed)).toBe(true);
    expect(calls.length).toBe(141);
    expect(failed.size).toBe(140);
    // a second resynchronisation from the same place (a nested one, after another path) tries only what is left
    calls.length = 0;
    expect(resyncToFence(r, 10, 200, parse, failed)).toBe(true);
    expect(calls).toEqual([150]);
  });

  it('with startsWithString tries only positions where a modified UTF-8 string could be read', () => {
    const w = new ByteWriter();
    for (let i = 0; i < 20; i++) w.u8(0xff); // no string can start in 0xff bytes (its length would pass the end)
    w.utf('VALUE_SERIALIZER');
    const bytes = w.finish();
    const r = new ByteReader(bytes);
    const tried: number[] = [];
    const parse = () => {
      tried.push(r.position);
      const key = r.readUtf('key');
      if (key !== 'VALUE_SERIALIZER') throw new DecodeError({ code: 'invalid-value', detail: key });
      return key;
    };
    expect(resyncToFence(r, 0, bytes.length, parse, new Set(), true)).toBe('VALUE_SERIALIZER');
    expect(tried).toEqual([20]);
  });

  it('gives the stack traces of errors back once it is done', () => {
    const limit = (Error as { stackTraceLimit?: number }).stackTraceLimit;
    const { r, parse } = setup(64, 40);
    resyncToFence(r, 0, 64, parse);
    expect((Error as { stackTraceLimit?: number }).stackTraceLimit).toBe(limit);
  });
});
