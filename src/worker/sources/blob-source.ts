import { DecodeError, type ByteSource, type InputFile } from '../../core/io';

/**
 * A read of at least this many bytes that no open stream serves opens one (`Blob.slice(offset).stream()`);
 * a smaller one is one `Blob.slice().arrayBuffer()`. Header and `_metadata` reads stay single reads.
 */
export const BLOB_STREAM_MIN_READ_BYTES = 256 * 1024;
/**
 * Bytes a stream keeps behind the end of its last read (the chunks it already handed out): a read
 * that starts up to this far before it is served from them. A whole-state scan reads a key-group
 * block in windows, and each window starts again at the entry the one before cut off.
 */
export const BLOB_STREAM_RETAIN_BYTES = 1024 * 1024;
/** A read up to this far past a stream's last read is served by that stream (the bytes between are read and dropped). */
export const BLOB_STREAM_SKIP_BYTES = 1024 * 1024;
/** Streams open at once per Blob (a scan, a page read and a read ahead may each continue their own); the least recently used is cancelled. */
const MAX_STREAMS = 4;
/** A stream nobody read from for this long is cancelled (so the browser drops what it read ahead, and the file). */
const IDLE_MS = 2000;

/**
 * A ByteSource over a browser File/Blob; nothing is loaded beyond the ranges asked for.
 *
 * Chromium pays a round trip to its browser process for every Blob read (~3–5 ms, then the bytes come
 * through a data pipe), whatever its size, so a scan of 1 GiB in 4 MiB reads spent ~1.3 s of its
 * 2.2–2.5 s reading on those round trips alone; one `Blob.stream()` over the same bytes took ~1.1 s.
 * So consecutive reads are served from one stream: the first read of at least
 * BLOB_STREAM_MIN_READ_BYTES opens a stream from its offset to the Blob's end, and every later read
 * that starts at most BLOB_STREAM_RETAIN_BYTES before (or BLOB_STREAM_SKIP_BYTES after) where that
 * stream's last read ended continues it. The browser reads ahead only what its data pipe holds; a
 * stream is cancelled when it is unused for IDLE_MS or when a fifth one is opened. `readInto` copies
 * the stream's chunks straight into the caller's buffer (the core's whole-state scans reuse their
 * read buffers and read the next window ahead).
 */
export function blobSource(
  blob: Blob,
  name: string,
  options: { /** read streams chunk by chunk even where BYOB readers exist (tests) */ chunks?: boolean } = {},
): ByteSource {
  const streams: BlobStream[] = [];
  const check = (offset: number, length: number) => {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > blob.size) {
      throw new DecodeError({ code: 'truncated', detail: `expected ${length} bytes at offset ${offset}, found a ${blob.size}-byte file`, file: name, offset });
    }
  };
  /** The stream that serves [offset, offset + length), opened when none does and the read is large enough. */
  const streamFor = (offset: number, length: number): BlobStream | undefined => {
    for (const s of streams) {
      if (offset >= Math.max(s.start, s.plannedEnd - s.retain) && offset <= s.plannedEnd + BLOB_STREAM_SKIP_BYTES) return s;
    }
    if (length < BLOB_STREAM_MIN_READ_BYTES) return undefined;
    if (streams.length >= MAX_STREAMS) {
      // a stream with reads still to serve is never closed under them
      const idle = streams.filter((s) => s.pending === 0);
      if (idle.length === 0) return undefined;
      close(idle.reduce((a, b) => (b.lastUse < a.lastUse ? b : a)));
    }
    const s = openBlobStream(blob, name, offset, close, options.chunks === true);
    streams.push(s);
    return s;
  };
  const close = (s: BlobStream): void => {
    const i = streams.indexOf(s);
    if (i >= 0) streams.splice(i, 1);
    s.cancel();
  };
  return {
    name,
    size: blob.size,
    async read(offset, length) {
      check(offset, length);
      if (length === 0) return new Uint8Array(0);
      const stream = streamFor(offset, length);
      if (stream !== undefined) return stream.read(offset, length, undefined);
      return readSlice(blob, name, offset, length);
    },
    async readInto(offset, length, target) {
      check(offset, length);
      if (length === 0) return target.subarray(0, 0);
      const stream = streamFor(offset, length);
      if (stream !== undefined) return stream.read(offset, length, target);
      const bytes = await readSlice(blob, name, offset, length);
      target.set(bytes);
      return target.subarray(0, length);
    },
  };
}

async function readSlice(blob: Blob, name: string, offset: number, length: number): Promise<Uint8Array> {
  let buf: ArrayBuffer;
  try {
    buf = await blob.slice(offset, offset + length).arrayBuffer();
  } catch (e) {
    throw unreadable(name, offset, e);
  }
  if (buf.byteLength !== length) throw changed(name, offset, length, buf.byteLength);
  return new Uint8Array(buf);
}

// e.g. NotReadableError when the file changed or was removed after it was picked
function unreadable(name: string, offset: number, e: unknown): DecodeError {
  return new DecodeError({
    code: 'missing-file',
    detail: `expected to read ${name}, found the browser cannot read it any more (${e instanceof Error ? e.message : String(e)}); pick it again`,
    file: name,
    offset,
    cause: e,
  });
}

function changed(name: string, offset: number, length: number, found: number): DecodeError {
  return new DecodeError({
    code: 'truncated',
    detail: `expected ${length} bytes at offset ${offset}, found ${found}: the file changed after it was picked`,
    file: name,
    offset,
  });
}

/**
 * One `Blob.slice(start).stream()` read in order: reads are served one after the other (each waits for
 * the one handed to it before), and a read may start up to `retain` bytes before where the last one
 * ended. Subclasses pull the bytes: into buffers of ours where the stream is a byte stream
 * (ByobBlobStream), else as the stream's own chunks (ChunkBlobStream).
 */
abstract class BlobStream {
  /** end of the last read handed to this stream (not yet necessarily served) */
  plannedEnd: number;
  lastUse = 0;
  /** reads handed to this stream and not yet served */
  pending = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private failed: DecodeError | undefined;
  private idle: ReturnType<typeof setTimeout> | undefined;

  constructor(
    protected readonly name: string,
    readonly start: number,
    /** bytes before the end of the last read that a read may start at */
    readonly retain: number,
    private readonly close: (s: BlobStream) => void,
  ) {
    this.plannedEnd = start;
  }

  read(offset: number, length: number, target: Uint8Array | undefined): Promise<Uint8Array> {
    this.plannedEnd = Math.max(this.plannedEnd, offset + length);
    this.lastUse = Date.now();
    this.pending++;
    this.disarm();
    const served = this.queue.then(async () => {
      if (this.failed !== undefined) throw this.failed;
      try {
        return await this.serve(offset, length, target);
      } catch (e) {
        this.failed = e instanceof DecodeError ? e : unreadable(this.name, offset, e);
        this.close(this);
        throw this.failed;
      }
    });
    this.queue = served.then(
      () => this.settled(),
      () => this.settled(),
    );
    return served;
  }

  cancel(): void {
    this.disarm();
    this.failed ??= new DecodeError({ code: 'cancelled', detail: 'the stream was closed' });
    this.release();
  }

  /** Bytes [offset, offset + length) into `target`, or into a new array (or a view of one of ours that nobody writes to); throws when the stream ends before them. */
  protected abstract serve(offset: number, length: number, target: Uint8Array | undefined): Promise<Uint8Array>;

  /** Cancels the stream and drops what it holds. */
  protected abstract release(): void;

  protected ended(offset: number, length: number, found: number): DecodeError {
    return changed(this.name, offset, length, Math.max(0, found));
  }

  /** A read was served (or failed): with none left, the stream is closed after IDLE_MS unless read again. */
  private settled(): void {
    if (--this.pending > 0 || this.failed !== undefined) return;
    this.disarm();
    const t = setTimeout(() => this.close(this), IDLE_MS);
    // (Node, in unit tests: an idle stream does not keep the process alive)
    (t as { unref?: () => void }).unref?.();
    this.idle = t;
  }

  private disarm(): void {
    if (this.idle !== undefined) clearTimeout(this.idle);
    this.idle = undefined;
  }
}

/** Bytes a byte stream's reader fills at most per read into our scratch buffer (reused from read to read). */
const BYOB_SCRATCH_BYTES = 1024 * 1024;
/** Bytes of its last read a ByobBlobStream keeps a copy of, for a read that starts again within them. */
export const BYOB_TAIL_BYTES = 64 * 1024;

/**
 * A byte stream (Chromium's, Firefox's and Node's Blob.stream()) read with a BYOB reader: the bytes go
 * from the browser's data pipe straight into our buffers — the caller's array for `read`, a scratch
 * buffer copied into the caller's for `readInto` — with no array allocated per chunk. It keeps a copy
 * of the last BYOB_TAIL_BYTES of each read: a window that starts again at the entry the one before
 * cut off starts within them (a larger step back opens another stream).
 */
class ByobBlobStream extends BlobStream {
  private scratch: ArrayBuffer | undefined;
  private readonly tail = new Uint8Array(BYOB_TAIL_BYTES);
  /** the tail holds [tailEnd - tailLength, tailEnd); tailEnd is the position after every read */
  private tailLength = 0;
  private tailEnd: number;
  /** absolute position of the stream's next byte */
  private position: number;

  constructor(
    private readonly reader: ReadableStreamBYOBReader,
    name: string,
    start: number,
    close: (s: BlobStream) => void,
  ) {
    super(name, start, BYOB_TAIL_BYTES, close);
    this.position = start;
    this.tailEnd = start;
  }

  protected async serve(offset: number, length: number, target: Uint8Array | undefined): Promise<Uint8Array> {
    const end = offset + length;
    let out = target ?? new Uint8Array(length);
    let at = 0;
    if (offset < this.position) {
      // the start again, from the tail
      const n = Math.min(end, this.position) - offset;
      const from = this.tailLength - (this.tailEnd - offset);
      out.set(this.tail.subarray(from, from + n), 0);
      at = n;
    }
    // a read a little ahead: the bytes between are pulled and dropped
    while (this.position < offset) await this.pull(Math.min(offset - this.position, BYOB_SCRATCH_BYTES), undefined, offset, length);
    if (target === undefined && at < length) {
      // our own array: filled in place (each read hands it back as a view of the same memory)
      let buffer = out.buffer as ArrayBuffer;
      while (at < length) {
        const { done, value } = await this.reader.read(new Uint8Array(buffer, at, length - at));
        if (done || value === undefined) throw this.ended(offset, length, at);
        buffer = value.buffer as ArrayBuffer;
        at += value.byteLength;
        this.position += value.byteLength;
      }
      out = new Uint8Array(buffer, 0, length);
    } else {
      while (at < length) at += await this.pull(length - at, out.subarray(at), offset, length);
    }
    this.keepTail(out.subarray(0, length), offset);
    return out.subarray(0, length);
  }

  /** Reads up to `max` bytes into the scratch buffer and copies them to `into` (if given); the bytes read. */
  private async pull(max: number, into: Uint8Array | undefined, offset: number, length: number): Promise<number> {
    const scratch = this.scratch ?? new ArrayBuffer(BYOB_SCRATCH_BYTES);
    this.scratch = undefined;
    const { done, value } = await this.reader.read(new Uint8Array(scratch, 0, Math.min(max, BYOB_SCRATCH_BYTES)));
    if (done || value === undefined || value.byteLength === 0) throw this.ended(offset, length, this.position - offset);
    this.scratch = value.buffer as ArrayBuffer;
    into?.set(value);
    this.position += value.byteLength;
    if (into === undefined) this.keepTail(value, this.position - value.byteLength);
    return value.byteLength;
  }

  /**
   * Keeps the last BYOB_TAIL_BYTES up to the stream's position, given `bytes` (at absolute `from`) that
   * end there: those of `bytes`, after those of the tail before `from` (none are skipped: every byte
   * pulled passes here).
   */
  private keepTail(bytes: Uint8Array, from: number): void {
    const end = from + bytes.length;
    if (end !== this.position) return;
    if (bytes.length >= BYOB_TAIL_BYTES) {
      this.tail.set(bytes.subarray(bytes.length - BYOB_TAIL_BYTES));
      this.tailLength = BYOB_TAIL_BYTES;
      this.tailEnd = end;
      return;
    }
    const tailStart = this.tailEnd - this.tailLength;
    const keep = Math.max(0, Math.min(BYOB_TAIL_BYTES - bytes.length, from - tailStart));
    this.tail.copyWithin(0, from - tailStart - keep, from - tailStart);
    this.tail.set(bytes, keep);
    this.tailLength = keep + bytes.length;
    this.tailEnd = end;
  }

  protected release(): void {
    this.scratch = undefined;
    this.reader.cancel().catch(() => undefined);
  }
}

/**
 * A stream that is not a byte stream, read chunk by chunk: the chunks are kept until they lie more
 * than BLOB_STREAM_RETAIN_BYTES behind the end of the last read, and reads are copied out of them (or
 * are a view of one chunk).
 */
class ChunkBlobStream extends BlobStream {
  /** chunks pulled and kept, contiguous, the first at `chunksStart` */
  private chunks: Uint8Array[] = [];
  private chunksStart: number;
  /** end of the bytes pulled so far */
  private pulledEnd: number;

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    name: string,
    start: number,
    close: (s: BlobStream) => void,
  ) {
    super(name, start, BLOB_STREAM_RETAIN_BYTES, close);
    this.chunksStart = start;
    this.pulledEnd = start;
  }

  protected async serve(offset: number, length: number, target: Uint8Array | undefined): Promise<Uint8Array> {
    const end = offset + length;
    while (this.pulledEnd < end) {
      const { done, value } = await this.reader.read();
      if (done) throw this.ended(offset, length, this.pulledEnd - offset);
      if (this.pulledEnd + value.length <= offset - BLOB_STREAM_RETAIN_BYTES) {
        // skipped over: not kept
        this.chunksStart = this.pulledEnd += value.length;
        continue;
      }
      this.chunks.push(value);
      this.pulledEnd += value.length;
    }
    const out = this.copy(offset, end, target);
    this.drop(end - BLOB_STREAM_RETAIN_BYTES);
    return out;
  }

  /** Bytes [offset, end) from the chunks: a view of one chunk when they lie in it and no target is given. */
  private copy(offset: number, end: number, target: Uint8Array | undefined): Uint8Array {
    let at = this.chunksStart;
    let i = 0;
    while (at + this.chunks[i]!.length <= offset) at += this.chunks[i++]!.length;
    const first = this.chunks[i]!;
    if (target === undefined && end - at <= first.length) return first.subarray(offset - at, end - at);
    const out = target ?? new Uint8Array(end - offset);
    let written = 0;
    for (let pos = offset; pos < end; i++) {
      const chunk = this.chunks[i]!;
      const from = pos - at;
      const n = Math.min(chunk.length - from, end - pos);
      out.set(from === 0 && n === chunk.length ? chunk : chunk.subarray(from, from + n), written);
      written += n;
      pos += n;
      at += chunk.length;
    }
    return out.subarray(0, end - offset);
  }

  /** Drops the chunks that end at or before `before`. */
  private drop(before: number): void {
    let n = 0;
    while (n < this.chunks.length && this.chunksStart + this.chunks[n]!.length <= before) this.chunksStart += this.chunks[n++]!.length;
    if (n > 0) this.chunks.splice(0, n);
  }

  protected release(): void {
    this.chunks = [];
    this.reader.cancel().catch(() => undefined);
  }
}

/** A stream of `blob` from `start` to its end: read with a BYOB reader where it is a byte stream (unless `chunks`). */
function openBlobStream(blob: Blob, name: string, start: number, close: (s: BlobStream) => void, chunks: boolean): BlobStream {
  const stream = blob.slice(start).stream() as ReadableStream<Uint8Array>;
  if (!chunks) {
    let byob: ReadableStreamBYOBReader | undefined;
    try {
      byob = stream.getReader({ mode: 'byob' });
    } catch {
      // not a byte stream
    }
    if (byob !== undefined) return new ByobBlobStream(byob, name, start, close);
  }
  return new ChunkBlobStream(stream.getReader(), name, start, close);
}

/** Dropped/picked files (relative path + Blob) as the core's InputFile list. */
export function toInputFiles(files: readonly { path: string; blob: Blob }[]): InputFile[] {
  return files.map((f) => ({ path: f.path, source: blobSource(f.blob, f.path) }));
}
