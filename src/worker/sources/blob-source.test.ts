/**
 * blobSource serves consecutive reads from one Blob stream: whatever the order, overlap, gaps and
 * concurrency of the reads, each returns exactly the Blob's bytes of its range, by `read` and by
 * `readInto`, with a BYOB reader (Node's Blob.stream() is a byte stream, as Chromium's) and chunk by
 * chunk; a stream that fails or ends early is a located DecodeError of every read it was to serve.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDecodeError } from '../../core/io';
import { expectSameBytes } from '../../../tests/helpers/expect-same-bytes';
import { BLOB_STREAM_MIN_READ_BYTES, BLOB_STREAM_RETAIN_BYTES, BYOB_TAIL_BYTES, blobSource } from './blob-source';

const SIZE = 5 * 1024 * 1024 + 123;
const BYTES = new Uint8Array(SIZE);
for (let i = 0; i < SIZE; i++) BYTES[i] = (i * 2654435761) >>> 24;

/** A Blob that counts how its bytes are asked for: one-shot reads (arrayBuffer) and streams opened. */
function countingBlob(bytes: Uint8Array): { blob: Blob; counts: { slices: number; streams: number } } {
  const counts = { slices: 0, streams: 0 };
  const wrap = (b: Blob): Blob =>
    new Proxy(b, {
      get(target, prop) {
        if (prop === 'slice') return (start?: number, end?: number) => wrap(target.slice(start, end));
        if (prop === 'arrayBuffer') return () => (counts.slices++, target.arrayBuffer());
        if (prop === 'stream') return () => (counts.streams++, target.stream());
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  return { blob: wrap(new Blob([bytes as Uint8Array<ArrayBuffer>])), counts };
}

describe.each([
  ['with a BYOB reader', false],
  ['chunk by chunk', true],
] as const)('blobSource, streams read %s', (_how, chunks) => {
  it('reads ranges of a Blob and rejects reads past its end', async () => {
    const src = blobSource(new Blob([Uint8Array.from([1, 2, 3, 4, 5])]), 'drop/f', { chunks });
    expect([...(await src.read(1, 3))]).toEqual([2, 3, 4]);
    await expect(src.read(4, 2)).rejects.toThrow('expected 2 bytes at offset 4, found a 5-byte file — at drop/f, offset 4 (0x4)');
    await expect(src.readInto!(4, 2, new Uint8Array(2))).rejects.toThrow('expected 2 bytes at offset 4, found a 5-byte file');
  });

  it('a scan in windows, each starting again at the entry the one before cut off, is one stream', async () => {
    const { blob, counts } = countingBlob(BYTES);
    const src = blobSource(blob, 'sp.zip', { chunks });
    const window = 1024 * 1024;
    const buffers = [new Uint8Array(window), new Uint8Array(window)];
    let at = 0;
    let turn = 0;
    // the next window is asked for before the current one is used (read ahead), as the core's scan does
    let next = src.readInto!(at, Math.min(window, SIZE - at), buffers[turn]!);
    while (at < SIZE) {
      const bytes = await next;
      expectSameBytes(bytes, BYTES.subarray(at, at + bytes.length));
      const consumed = at + bytes.length >= SIZE ? bytes.length : bytes.length - 1000 - (at % 777);
      at += consumed;
      turn ^= 1;
      if (at < SIZE) next = src.readInto!(at, Math.min(window, SIZE - at), buffers[turn]!);
    }
    expect(counts).toEqual({ slices: 0, streams: 1 });
  });

  it('small reads that no stream serves are single reads; a read far from every stream opens another', async () => {
    const { blob, counts } = countingBlob(BYTES);
    const src = blobSource(blob, 'f', { chunks });
    expectSameBytes(await src.read(10, 100), BYTES.subarray(10, 110));
    expect(counts).toEqual({ slices: 1, streams: 0 });
    expectSameBytes(await src.read(1000, BLOB_STREAM_MIN_READ_BYTES), BYTES.subarray(1000, 1000 + BLOB_STREAM_MIN_READ_BYTES));
    expect(counts).toEqual({ slices: 1, streams: 1 });
    // continuing it, even with a small read, is the same stream
    const end = 1000 + BLOB_STREAM_MIN_READ_BYTES;
    expectSameBytes(await src.read(end, 10), BYTES.subarray(end, end + 10));
    // a step back within what the stream keeps (BYOB: a copy of the last BYOB_TAIL_BYTES; chunks: BLOB_STREAM_RETAIN_BYTES)
    const back = BYOB_TAIL_BYTES - 30;
    expectSameBytes(await src.read(end + 10 - back, 20), BYTES.subarray(end + 10 - back, end + 30 - back));
    expect(counts).toEqual({ slices: 1, streams: 1 });
    expectSameBytes(await src.read(4 * 1024 * 1024, BLOB_STREAM_MIN_READ_BYTES), BYTES.subarray(4 * 1024 * 1024, 4 * 1024 * 1024 + BLOB_STREAM_MIN_READ_BYTES));
    expect(counts).toEqual({ slices: 1, streams: 2 });
  });

  it("any reads, in any order, several at once: the Blob's bytes of each range", async () => {
    const read = fc.record({
      offset: fc.oneof(fc.integer({ min: 0, max: SIZE }), fc.constantFrom(0, SIZE - 1, SIZE)),
      length: fc.oneof(fc.integer({ min: 0, max: 64 }), fc.integer({ min: 0, max: 2 * 1024 * 1024 })),
      into: fc.boolean(),
      relative: fc.option(
        fc.oneof(fc.integer({ min: -BYOB_TAIL_BYTES - 5000, max: 5000 }), fc.integer({ min: -BLOB_STREAM_RETAIN_BYTES - 5000, max: 2 * 1024 * 1024 })),
        { nil: undefined },
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(read, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }), async (batches) => {
        const src = blobSource(new Blob([BYTES as Uint8Array<ArrayBuffer>]), 'f', { chunks });
        let last = 0;
        for (const batch of batches) {
          // a batch is asked for at once, before any of it arrives
          const pending = batch.map((r) => {
            const offset = Math.max(0, Math.min(SIZE, r.relative === undefined ? r.offset : last + r.relative));
            const length = Math.min(r.length, SIZE - offset);
            last = offset + length;
            const target = r.into ? new Uint8Array(length + 3) : undefined;
            return { offset, length, bytes: target ? src.readInto!(offset, length, target) : src.read(offset, length) };
          });
          for (const p of pending) {
            const bytes = await p.bytes;
            expect(bytes.length).toBe(p.length);
            expectSameBytes(bytes, BYTES.subarray(p.offset, p.offset + p.length));
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it("a stream that fails, or ends before the Blob's size, fails the reads it was to serve with a located DecodeError", async () => {
    const failing = (bytes: Uint8Array, fail: 'error' | 'short'): Blob => {
      const blob = new Blob([bytes as Uint8Array<ArrayBuffer>]);
      return new Proxy(blob, {
        get(target, prop) {
          if (prop === 'slice')
            return (start?: number, end?: number) => {
              const part = target.slice(start, end);
              return new Proxy(part, {
                get(t, p) {
                  if (p === 'stream')
                    return () =>
                      new ReadableStream({
                        type: 'bytes',
                        start(c) {
                          c.enqueue(new Uint8Array(100));
                          if (fail === 'error') c.error(new Error('NotReadableError: the file changed'));
                          else c.close();
                        },
                      });
                  const v = Reflect.get(t, p, t) as unknown;
                  return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
                },
              });
            };
          const v = Reflect.get(target, prop, target) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
    };
    for (const fail of ['error', 'short'] as const) {
      const src = blobSource(failing(BYTES, fail), 'sp/f', { chunks });
      const a = src.read(0, BLOB_STREAM_MIN_READ_BYTES);
      const b = src.read(BLOB_STREAM_MIN_READ_BYTES, 10);
      for (const r of [a, b]) {
        const e = await r.then(
          () => undefined,
          (x: unknown) => x,
        );
        expect(isDecodeError(e)).toBe(true);
        expect((e as { code: string }).code).toBe(fail === 'error' ? 'missing-file' : 'truncated');
        expect((e as { file: string }).file).toBe('sp/f');
      }
    }
  });
});
