import { ByteReader } from './byte-reader';
import type { ByteSource } from './byte-source';
import { DecodeError } from './decode-error';
import { decodeSnappyChunk, readSnappyChunkLength as chunkLength, type SnappyChecksumMode, type SnappyChunkContext } from './decode-snappy-chunk';
import { formatHex } from './format-hex';

export interface SnappyFramedOptions {
  /** where the stream starts (absolute offset); default 0 */
  readonly offset?: number;
  /** where the stream must stop (exclusive); default: end of input */
  readonly end?: number;
  /**
   * 'required': the stream must open with the identifier chunk (keyed state blocks);
   * 'optional' (default): it may (operator state offsets point at data chunks).
   */
  readonly identifier?: 'required' | 'optional';
  /**
   * CRC-32C of each data chunk. Flink itself never verifies them, so the default 'warn' decodes
   * anyway and records a DecodeError in `warnings`; 'verify' throws, 'ignore' skips the work.
   */
  readonly checksums?: SnappyChecksumMode;
  /** largest total decompressed output; default 1 GiB */
  readonly maxOutputBytes?: number;
  /** file name for errors (sync decoder only; the reader uses the source's name) */
  readonly file?: string;
}

const DEFAULT_MAX_OUTPUT = 1024 ** 3;
const RAW_WINDOW = 128 * 1024;

/**
 * Decodes a whole Snappy-framed stream held in memory (e.g. an inline state handle), from
 * `offset` to `end`. Returns the concatenated output and checksum warnings.
 */
export function decodeSnappyFramed(bytes: Uint8Array, options: SnappyFramedOptions = {}): { data: Uint8Array; warnings: DecodeError[] } {
  const file = options.file ?? 'snappy stream';
  const ctx: SnappyChunkContext = { file, checksums: options.checksums ?? 'warn', warnings: [] };
  const end = options.end ?? bytes.length;
  const max = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const parts: Uint8Array[] = [];
  let total = 0;
  let p = options.offset ?? 0;
  let first = true;
  while (p < end) {
    const len = chunkLength(bytes, p, end, p, file);
    if (first) checkFirstChunk(bytes[p]!, options, file, p);
    first = false;
    const chunk = decodeSnappyChunk(bytes, p, p, ctx);
    if (chunk.data) {
      total += chunk.data.length;
      if (total > max) throw outputLimit(file, p, max);
      parts.push(chunk.data);
    }
    p += len;
  }
  if (first && options.identifier === 'required') checkFirstChunk(undefined, options, file, p);
  const data = new Uint8Array(total);
  let q = 0;
  for (const part of parts) {
    data.set(part, q);
    q += part.length;
  }
  return { data, warnings: ctx.warnings };
}

/**
 * Incremental reader of a Snappy-framed stream inside a ByteSource: pulls raw bytes in 128 KiB
 * windows and decompresses one chunk at a time, only as far as the caller reads. Keyed block
 * readers read until their FF FF end mark; operator readers decode one element at a time.
 */
export class SnappyFramedReader {
  readonly warnings: DecodeError[] = [];
  private readonly ctx: SnappyChunkContext;
  private readonly end: number;
  private readonly max: number;
  private raw: Uint8Array = new Uint8Array(0);
  private rawStart = 0;
  private rawPos: number;
  private out: Uint8Array = new Uint8Array(0);
  private outPos = 0;
  private produced = 0;
  private consumedOut = 0;
  private first = true;
  private currentChunk: number;

  constructor(
    private readonly source: ByteSource,
    private readonly options: SnappyFramedOptions = {},
  ) {
    this.rawPos = options.offset ?? 0;
    this.currentChunk = this.rawPos;
    this.end = Math.min(options.end ?? source.size, source.size);
    this.max = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
    this.ctx = { file: source.name, checksums: options.checksums ?? 'warn', warnings: this.warnings };
  }

  /** decompressed bytes handed out so far */
  get position(): number {
    return this.consumedOut;
  }
  /** absolute offset in the source of the chunk the next byte comes from (for error locations) */
  get chunkOffset(): number {
    return this.currentChunk;
  }

  /** The next decompressed chunk's remaining bytes, or undefined at the end of the stream. */
  async readChunk(): Promise<Uint8Array | undefined> {
    if (this.outPos >= this.out.length && !(await this.fill())) return undefined;
    const data = this.out.subarray(this.outPos);
    this.outPos = this.out.length;
    this.consumedOut += data.length;
    return data;
  }

  /** True when no decompressed byte is left. */
  async atEnd(): Promise<boolean> {
    return this.outPos >= this.out.length && !(await this.fill());
  }

  /** Exactly n decompressed bytes; a DecodeError 'truncated' if the stream ends first. */
  async readBytes(n: number, what = 'bytes'): Promise<Uint8Array> {
    if (!Number.isSafeInteger(n) || n < 0) throw this.fail('invalid-value', `expected a non-negative length for ${what}, found ${n}`);
    if (n > this.max) throw outputLimit(this.source.name, this.currentChunk, this.max);
    if (this.out.length - this.outPos >= n) {
      const v = this.out.subarray(this.outPos, this.outPos + n);
      this.outPos += n;
      this.consumedOut += n;
      return v;
    }
    const result = new Uint8Array(n);
    let got = 0;
    while (got < n) {
      if (this.outPos >= this.out.length && !(await this.fill())) {
        throw this.fail('truncated', `expected ${n} bytes for ${what} in the Snappy stream, found it ends after ${got}`);
      }
      const take = Math.min(n - got, this.out.length - this.outPos);
      result.set(this.out.subarray(this.outPos, this.outPos + take), got);
      this.outPos += take;
      got += take;
    }
    this.consumedOut += n;
    return result;
  }

  /** Big-endian u16 from the decompressed stream (e.g. a key-group block's state id or FF FF). */
  async readU16(what = 'unsigned short'): Promise<number> {
    return new ByteReader(await this.readBytes(2, what)).readU16(what);
  }
  async readI32(what = 'int'): Promise<number> {
    return new ByteReader(await this.readBytes(4, what)).readI32(what);
  }

  /** Decodes chunks until one yields data; false at the end of the stream. */
  private async fill(): Promise<boolean> {
    while (this.rawPos < this.end) {
      const at = this.rawPos;
      await this.ensureRaw(at, 4);
      const len = chunkLength(this.raw, at - this.rawStart, this.end - this.rawStart, at, this.source.name);
      if (this.first) checkFirstChunk(this.raw[at - this.rawStart]!, this.options, this.source.name, at);
      this.first = false;
      await this.ensureRaw(at, len);
      const chunk = decodeSnappyChunk(this.raw, at - this.rawStart, at, this.ctx);
      this.rawPos += len;
      if (chunk.data && chunk.data.length > 0) {
        this.produced += chunk.data.length;
        if (this.produced > this.max) throw outputLimit(this.source.name, at, this.max);
        this.out = chunk.data;
        this.outPos = 0;
        this.currentChunk = at;
        return true;
      }
    }
    if (this.first && this.options.identifier === 'required') checkFirstChunk(undefined, this.options, this.source.name, this.rawPos);
    this.first = false;
    return false;
  }

  private async ensureRaw(at: number, n: number): Promise<void> {
    if (at >= this.rawStart && at + n <= this.rawStart + this.raw.length) return;
    const len = Math.min(Math.max(n, RAW_WINDOW), this.end - at);
    this.raw = await this.source.read(at, len);
    this.rawStart = at;
  }

  private fail(code: 'truncated' | 'invalid-value', detail: string): DecodeError {
    return new DecodeError({ code, detail, file: this.source.name, offset: this.rawPos });
  }
}

function checkFirstChunk(type: number | undefined, options: SnappyFramedOptions, file: string, offset: number): void {
  if (options.identifier !== 'required' || type === 0xff) return;
  throw new DecodeError({
    code: 'bad-magic',
    detail: `expected a Snappy framed stream starting with the stream identifier chunk (type 0xff), found ${type === undefined ? 'no chunk at all' : `a chunk of type 0x${formatHex([type])}`}`,
    file,
    offset,
  });
}

function outputLimit(file: string, offset: number, max: number): DecodeError {
  return new DecodeError({ code: 'limit-exceeded', detail: `expected a Snappy stream of at most ${max} decompressed bytes, found more`, file, offset });
}
