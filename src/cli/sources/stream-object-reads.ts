import type { RangeStream } from './object-store';

/** The first streamed answer of a run of reads asks for this much (or the read, if larger); each next one for twice the one before. */
export const STREAM_FIRST_SPAN_BYTES = 16 * 1024 * 1024;
/** The largest one streamed answer asks for: a scan of a large object is a few requests, not one per window. */
export const STREAM_MAX_SPAN_BYTES = 128 * 1024 * 1024;
/**
 * Bytes of the chunks already handed out that are kept behind the end of the last read: a whole-state scan reads a
 * key-group block in windows, and each window starts again at the entry the one before cut off (a read that starts
 * further back is one ranged read of its own).
 */
export const STREAM_RETAIN_BYTES = 1024 * 1024;
/** A read up to this far past the stream's position continues it (the bytes between are read and dropped). */
export const STREAM_SKIP_BYTES = 1024 * 1024;
/** A stream nobody read from for this long is closed, so the store's connection is not held open after a scan. */
export const STREAM_IDLE_MS = 2000;

/**
 * `readInto` of a ByteSource over one object, for the core's whole-state scans (`stats`, `export`, counts: the
 * readers that reuse their read buffers and read the next window ahead): consecutive reads are served from one
 * streamed answer of the store (`open`: ObjectBucket.streamRange) instead of one request each. The first read opens
 * a stream of STREAM_FIRST_SPAN_BYTES from its offset (clipped at the object's end), each next span twice as long up
 * to STREAM_MAX_SPAN_BYTES; a read that starts within STREAM_RETAIN_BYTES before or STREAM_SKIP_BYTES after the
 * stream's position continues it, any other read starts a new stream (one that starts before the bytes kept is a
 * ranged read: `readRange`). Memory: the bytes kept plus what the client buffers of its socket (it reads ahead no
 * further: backpressure). Reads are served one after the other, each copied from the store's chunks straight into
 * the caller's buffer. A failure of the stream (the store's one-line DecodeError, after its retries) fails the read
 * and drops the stream: the next read opens another.
 */
export function streamObjectReads(
  size: number,
  open: (offset: number, length: number) => RangeStream,
  readRange: (offset: number, length: number) => Promise<Uint8Array>,
): (offset: number, length: number, target: Uint8Array) => Promise<Uint8Array> {
  let stream: RangeStream | undefined;
  /** the current stream's answer ends here */
  let streamEnd = 0;
  let span = STREAM_FIRST_SPAN_BYTES;
  /** chunks pulled and kept, contiguous: [keptStart, pulledEnd) */
  let kept: Uint8Array[] = [];
  let keptStart = 0;
  let pulledEnd = 0;
  let started = false;
  let queue: Promise<unknown> = Promise.resolve();
  let idle: ReturnType<typeof setTimeout> | undefined;
  let pending = 0;

  const reset = (at: number): void => {
    if (idle !== undefined) clearTimeout(idle);
    idle = undefined;
    stream?.close();
    stream = undefined;
    kept = [];
    keptStart = pulledEnd = streamEnd = at;
    span = STREAM_FIRST_SPAN_BYTES;
  };
  /** when the last read was served; the idle timer (one per stream, not one per read) closes the stream STREAM_IDLE_MS after it */
  let lastUse = 0;
  const watch = (): void => {
    if (idle !== undefined || stream === undefined) return;
    const wait = (): void => {
      idle = setTimeout(
        () => {
          idle = undefined;
          if (pending > 0 || stream === undefined) return;
          const left = lastUse + STREAM_IDLE_MS - Date.now();
          if (left > 0) return wait();
          reset(pulledEnd);
          started = false;
        },
        Math.max(1, lastUse + STREAM_IDLE_MS - Date.now()),
      );
      // (an idle stream does not keep the process alive: the scan is over when nothing else runs)
      idle.unref?.();
    };
    wait();
  };
  const rest = (): void => {
    lastUse = Date.now();
    stream?.hold(false);
    watch();
  };

  const serve = async (offset: number, length: number, target: Uint8Array): Promise<Uint8Array> => {
    const end = offset + length;
    const out = target.subarray(0, length);
    if (length === 0) return out;
    if (started && offset < keptStart) {
      // further back than the bytes kept: one ranged read, the stream stays where it is
      out.set(await readRange(offset, length));
      return out;
    }
    if (!started || offset > pulledEnd + STREAM_SKIP_BYTES) {
      reset(offset);
      started = true;
    }
    stream?.hold(true);
    try {
      while (pulledEnd < end) {
        if (stream === undefined || pulledEnd >= streamEnd) {
          const asked = Math.min(size - pulledEnd, Math.max(span, end - pulledEnd));
          stream = open(pulledEnd, asked);
          streamEnd = pulledEnd + asked;
          span = Math.min(span * 2, STREAM_MAX_SPAN_BYTES);
        }
        const chunk = stream.take?.() ?? (await stream.next());
        // (a store's stream ends only after every byte it was asked for, or throws)
        if (chunk === undefined) throw new Error(`the stream of [${pulledEnd}, ${streamEnd}) ended early`);
        if (chunk.length === 0) continue;
        kept.push(chunk);
        pulledEnd += chunk.length;
        if (pulledEnd >= streamEnd) stream = undefined;
      }
    } catch (e) {
      reset(pulledEnd);
      started = false;
      throw e;
    }
    // copy [offset, end) out of the kept chunks
    let at = keptStart;
    let i = 0;
    while (at + kept[i]!.length <= offset) at += kept[i++]!.length;
    let written = 0;
    while (written < length) {
      const chunk = kept[i++]!;
      const from = offset + written - at;
      const n = Math.min(chunk.length - from, length - written);
      out.set(from === 0 && n === chunk.length ? chunk : chunk.subarray(from, from + n), written);
      written += n;
      at += chunk.length;
    }
    // keep no more than STREAM_RETAIN_BYTES behind the end of this read
    let drop = 0;
    while (drop < kept.length && keptStart + kept[drop]!.length <= end - STREAM_RETAIN_BYTES) keptStart += kept[drop++]!.length;
    if (drop > 0) kept = kept.slice(drop);
    return out;
  };

  const settled = (): void => {
    if (--pending === 0) rest();
  };
  return (offset, length, target) => {
    pending++;
    const served = queue.then(() => serve(offset, length, target));
    queue = served.then(settled, settled);
    return served;
  };
}
