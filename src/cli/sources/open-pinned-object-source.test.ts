import { afterEach, describe, expect, it, vi } from 'vitest';
import { DecodeError, type ByteSource } from '../../core/io';
import type { PinnedObject, RangeStream } from './object-store';
import { openPinnedObjectSource } from './open-pinned-object-source';
import { STREAM_FIRST_SPAN_BYTES, STREAM_IDLE_MS, STREAM_RETAIN_BYTES, STREAM_SKIP_BYTES } from './stream-object-reads';

const MiB = 1024 * 1024;
const PIN = '"etag-1"';

/** An object of `size` bytes (byte i = i * 7 mod 251) whose store records every request and streams in 64 KiB chunks. */
function fakeObject(size: number, options: { failStreamAt?: number; ready?: boolean } = {}) {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7) % 251;
  const ranged: [number, number][] = [];
  const streams: { offset: number; length: number; closed: boolean; held: boolean; pulled: number; waited: number }[] = [];
  const object: PinnedObject = {
    url: 's3://b/state',
    head: () => Promise.resolve({ size, pin: PIN }),
    missing: () => Promise.resolve(''),
    readRange(offset, length, pin) {
      expect(pin).toBe(PIN);
      ranged.push([offset, length]);
      return Promise.resolve(bytes.slice(offset, offset + length));
    },
    streamRange(offset, length, pin): RangeStream {
      expect(pin).toBe(PIN);
      const s = { offset, length, closed: false, held: true, pulled: 0, waited: 0 };
      streams.push(s);
      const chunk = (): Uint8Array | undefined => {
        const at = offset + s.pulled;
        if (options.failStreamAt !== undefined && at >= options.failStreamAt && at - options.failStreamAt < 64 * 1024) {
          throw new DecodeError({ code: 'network', file: 's3://b/state', offset: at, detail: 'expected the bytes, found a reset' });
        }
        const n = Math.min(64 * 1024, length - s.pulled);
        s.pulled += n;
        return bytes.slice(at, at + n);
      };
      return {
        next() {
          expect(s.closed).toBe(false);
          s.waited++;
          if (s.pulled >= length) return Promise.resolve(undefined);
          try {
            return Promise.resolve(chunk());
          } catch (e) {
            return Promise.reject(e as Error);
          }
        },
        // with `ready`: the chunks of 1 MiB are received at once (as a store's are, in bursts), taken without waiting
        ...(options.ready === true
          ? {
              take() {
                expect(s.closed).toBe(false);
                if (s.pulled >= length || s.pulled % MiB === 0) return undefined;
                const at = offset + s.pulled;
                if (options.failStreamAt !== undefined && at >= options.failStreamAt && at - options.failStreamAt < 64 * 1024) return undefined;
                return chunk();
              },
            }
          : {}),
        hold(active) {
          s.held = active;
        },
        close() {
          s.closed = true;
        },
      };
    },
  };
  return { bytes, object, ranged, streams };
}

/** readInto of the source, asserted to exist. */
function readIntoOf(source: ByteSource): NonNullable<ByteSource['readInto']> {
  expect(source.readInto).toBeTypeOf('function');
  return source.readInto!.bind(source);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('openPinnedObjectSource', () => {
  it("a whole-state scan's readInto is served from a few streamed answers, not one request per window", async () => {
    const size = 40 * MiB + 12345;
    const { bytes, object, ranged, streams } = fakeObject(size);
    const source = openPinnedObjectSource(object, { known: { size, pin: PIN } });
    const readInto = readIntoOf(source);
    const buffers = [new Uint8Array(MiB), new Uint8Array(MiB)];
    // windows of 1 MiB, each starting again 3000 bytes before where the one before ended (the entry it cut off)
    let at = 100;
    let turn = 0;
    let windows = 0;
    while (at < size) {
      const length = Math.min(MiB, size - at);
      const got = await readInto(at, length, buffers[(turn ^= 1)]!);
      expect(got.length).toBe(length);
      expect(got.buffer).toBe(buffers[turn]!.buffer);
      expect(Buffer.compare(got, bytes.subarray(at, at + length)), `window at ${at}`).toBe(0);
      windows++;
      at += length === size - at ? length : length - 3000;
    }
    expect(windows).toBeGreaterThan(40);
    // 16 MiB, then 32 MiB clipped at the object's end: two requests for 40 windows
    expect(streams.map((s) => [s.offset, s.length])).toEqual([
      [100, STREAM_FIRST_SPAN_BYTES],
      [100 + STREAM_FIRST_SPAN_BYTES, size - 100 - STREAM_FIRST_SPAN_BYTES],
    ]);
    expect(ranged).toEqual([]);
  });

  it('chunks already received are taken without waiting: about one wait per window, not one per chunk', async () => {
    const size = 20 * MiB;
    const { bytes, object, streams } = fakeObject(size, { ready: true });
    const readInto = readIntoOf(openPinnedObjectSource(object, { known: { size, pin: PIN } }));
    const buffers = [new Uint8Array(MiB), new Uint8Array(MiB)];
    let turn = 0;
    for (let at = 0; at < size; at += MiB) {
      const got = await readInto(at, MiB, buffers[(turn ^= 1)]!);
      expect(Buffer.compare(got, bytes.subarray(at, at + MiB)), `window at ${at}`).toBe(0);
    }
    // 320 chunks of 64 KiB in 20 windows: one wait at each MiB the fake receives
    expect(streams.reduce((n, s) => n + s.waited, 0)).toBeLessThanOrEqual(22);
  });

  it('read (a verdict, a header) stays one ranged request of exactly the bytes asked for, and opens no stream', async () => {
    const size = 8 * MiB;
    const { bytes, object, ranged, streams } = fakeObject(size);
    const source = openPinnedObjectSource(object, { known: { size, pin: PIN } });
    expect(Buffer.compare(await source.read(10, 200), bytes.subarray(10, 210))).toBe(0);
    expect(Buffer.compare(await source.read(5 * MiB, 4096), bytes.subarray(5 * MiB, 5 * MiB + 4096))).toBe(0);
    expect(ranged).toEqual([
      [10, 200],
      [5 * MiB, 4096],
    ]);
    expect(streams).toEqual([]);
  });

  it('a read before the bytes kept is a ranged read (the stream goes on); a jump past the skip distance opens another stream', async () => {
    const size = 64 * MiB;
    const { bytes, object, ranged, streams } = fakeObject(size);
    const readInto = readIntoOf(openPinnedObjectSource(object, { known: { size, pin: PIN } }));
    const target = new Uint8Array(MiB);
    await readInto(0, MiB, target);
    await readInto(MiB, MiB, target);
    await readInto(2 * MiB, MiB, target);
    // 3 MiB read: the first MiB lies more than STREAM_RETAIN_BYTES behind
    const back = await readInto(0, 1000, target);
    expect(Buffer.compare(back, bytes.subarray(0, 1000))).toBe(0);
    expect(ranged).toEqual([[0, 1000]]);
    // a little ahead: the same stream, the bytes between dropped
    const ahead = 3 * MiB + STREAM_SKIP_BYTES - 10;
    expect(Buffer.compare(await readInto(ahead, 5000, target), bytes.subarray(ahead, ahead + 5000))).toBe(0);
    expect(streams.length).toBe(1);
    // far ahead: the stream is closed, another opened there
    const far = 40 * MiB;
    expect(Buffer.compare(await readInto(far, MiB, target), bytes.subarray(far, far + MiB))).toBe(0);
    expect(streams.map((s) => [s.offset, s.closed])).toEqual([
      [0, true],
      [far, false],
    ]);
    expect(STREAM_RETAIN_BYTES).toBeLessThan(3 * MiB);
  });

  it("a stream's failure fails the read with the store's error; the next read opens a new stream", async () => {
    const size = 8 * MiB;
    const { bytes, object, streams } = fakeObject(size, { failStreamAt: 2 * MiB });
    const source = openPinnedObjectSource(object, { known: { size, pin: PIN }, name: 'savepoint/state' });
    const readInto = readIntoOf(source);
    const target = new Uint8Array(MiB);
    await readInto(0, MiB, target);
    const failed = await readInto(MiB, 2 * MiB, new Uint8Array(2 * MiB)).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(DecodeError);
    // named as the source is (an archive entry, a mapped path), the store's failure its cause
    expect((failed as DecodeError).file).toBe('savepoint/state');
    expect((failed as DecodeError).detail).toBe('expected the bytes, found a reset');
    expect(streams[0]!.closed).toBe(true);
    const after = 3 * MiB;
    expect(Buffer.compare(await readInto(after, MiB, target), bytes.subarray(after, after + MiB))).toBe(0);
    expect(streams.map((s) => s.offset)).toEqual([0, after]);
  });

  it('an idle stream does not hold the process, and is closed STREAM_IDLE_MS after the last read', async () => {
    vi.useFakeTimers();
    const size = 32 * MiB;
    const { object, streams } = fakeObject(size);
    const readInto = readIntoOf(openPinnedObjectSource(object, { known: { size, pin: PIN } }));
    await readInto(0, MiB, new Uint8Array(MiB));
    expect(streams[0]!.held).toBe(false);
    await vi.advanceTimersByTimeAsync(STREAM_IDLE_MS / 2);
    await readInto(MiB, MiB, new Uint8Array(MiB));
    await vi.advanceTimersByTimeAsync(STREAM_IDLE_MS / 2 + 10);
    expect(streams[0]!.closed).toBe(false);
    await vi.advanceTimersByTimeAsync(STREAM_IDLE_MS);
    expect(streams[0]!.closed).toBe(true);
    // the next read opens another stream where it starts
    await readInto(2 * MiB, MiB, new Uint8Array(MiB));
    expect(streams.map((s) => s.offset)).toEqual([0, 2 * MiB]);
  });
});
