import { Inflate } from 'fflate';
import type { ByteSource } from './byte-source';
import { computeCrc32 } from './compute-crc32';
import { DecodeError, isDecodeError } from './decode-error';

export interface InflatedSourceInit {
  /** name of the resulting source, e.g. `sp.zip!/sp/_metadata` */
  readonly name: string;
  /** the archive the compressed bytes live in (for error locations) */
  readonly container: ByteSource;
  /** resolves to the absolute offset of the first compressed byte (after the local header) */
  readonly dataStart: () => Promise<number>;
  readonly compressedSize: number;
  /** the declared size: output is never allowed past it */
  readonly uncompressedSize: number;
  /** expected CRC-32 of the output, checked once the whole entry has been inflated */
  readonly crc32?: number;
}

/** compressed bytes fetched per read from the container */
const READ_SLICE = 64 * 1024;
/** compressed bytes pushed into the inflater at once; bounds the output of one push (≤ ~1032×) */
const PUSH_SLICE = 8 * 1024;

/**
 * A ByteSource over a raw DEFLATE stream (a zip entry) that inflates on demand with fflate's
 * streaming Inflate: a read of [offset, offset + length) inflates only up to offset + length and
 * keeps that prefix, so a header-only look costs only the compressed bytes of the header. Output past
 * the declared size is an error (zip bomb / lying header), as is a stream that ends short of it.
 */
export function openInflatedSource(init: InflatedSourceInit): ByteSource {
  const { name, container, compressedSize, uncompressedSize } = init;
  // the output buffer and the inflater are made on the first read: a listing of a zip with tens of
  // thousands of entries (a fat jar) opens a source per entry and reads a few of them
  let out = new Uint8Array(0);
  let produced = 0;
  let consumed = 0;
  let ended = false;
  let failure: unknown;
  let verified = false;
  let start: number | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  let inflaterMade: Inflate | undefined;
  const makeInflater = (): Inflate =>
    new Inflate((chunk, final) => {
      if (produced + chunk.length > uncompressedSize) {
        throw new DecodeError({
          code: 'limit-exceeded',
          detail: `expected '${name}' to inflate to its declared ${uncompressedSize} bytes, found it expands past that (at least ${produced + chunk.length} bytes): refusing a possible zip bomb`,
          file: container.name,
          ...(start === undefined ? {} : { offset: start + consumed }),
        });
      }
      if (produced + chunk.length > out.length) {
        let cap = out.length * 2 || 1024;
        while (cap < produced + chunk.length) cap *= 2;
        const next = new Uint8Array(Math.min(cap, uncompressedSize));
        next.set(out.subarray(0, produced));
        out = next;
      }
      out.set(chunk, produced);
      produced += chunk.length;
      if (final) ended = true;
    });

  async function inflateUpTo(target: number): Promise<void> {
    if (start === undefined) start = await init.dataStart();
    if (inflaterMade === undefined) {
      out = new Uint8Array(Math.min(uncompressedSize, 64 * 1024));
      inflaterMade = makeInflater();
    }
    const inflater = inflaterMade;
    // Past the target only when the declared size is reached: drain the rest so that output
    // beyond the declared size is detected rather than silently ignored.
    while ((produced < target || produced === uncompressedSize) && !ended && consumed < compressedSize) {
      const n = Math.min(READ_SLICE, compressedSize - consumed);
      const slice = await container.read(start + consumed, n);
      for (let p = 0; p < slice.length; p += PUSH_SLICE) {
        const part = slice.subarray(p, Math.min(p + PUSH_SLICE, slice.length));
        const last = consumed + p + part.length >= compressedSize;
        try {
          inflater.push(part, last);
        } catch (e) {
          if (isDecodeError(e)) throw e;
          throw new DecodeError({
            code: 'corrupt-compression',
            detail: `expected a valid DEFLATE stream for '${name}', found corrupt data (${e instanceof Error ? e.message : String(e)})`,
            file: container.name,
            offset: start + consumed + p,
            cause: e,
          });
        }
      }
      consumed += n;
    }
    if (produced < target) {
      throw new DecodeError({
        code: 'corrupt-archive',
        detail: `expected '${name}' to inflate to its declared ${uncompressedSize} bytes, found the DEFLATE stream ends after ${produced}`,
        file: container.name,
        offset: start + consumed,
      });
    }
    if (!verified && produced === uncompressedSize && init.crc32 !== undefined && (ended || consumed >= compressedSize)) {
      verified = true;
      const crc = computeCrc32(out.subarray(0, produced));
      if (crc !== init.crc32) {
        throw new DecodeError({
          code: 'corrupt-archive',
          detail: `expected CRC-32 0x${init.crc32.toString(16).padStart(8, '0')} for '${name}', found 0x${crc.toString(16).padStart(8, '0')}: the entry is damaged`,
          file: container.name,
          offset: start,
        });
      }
    }
  }

  return {
    name,
    size: uncompressedSize,
    read(offset, length) {
      if (offset < 0 || length < 0 || offset + length > uncompressedSize) {
        return Promise.reject(
          new DecodeError({
            code: 'truncated',
            detail: `expected ${length} bytes at offset ${offset}, found a ${uncompressedSize}-byte file`,
            file: name,
            offset,
          }),
        );
      }
      const run = queue.then(async () => {
        if (failure !== undefined) throw failure;
        try {
          await inflateUpTo(offset + length);
        } catch (e) {
          failure = e;
          throw e;
        }
        return out.slice(offset, offset + length);
      });
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
