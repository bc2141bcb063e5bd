import { Gunzip } from 'fflate';
import type { ByteSource } from './byte-source';
import { DecodeError, isDecodeError } from './decode-error';
import type { ArchiveLimits } from './input-file';
import type { TarCursor } from './walk-tar-members';

const READ_SLICE = 64 * 1024;
/** compressed bytes per push: bounds what one push can expand to (DEFLATE tops out near 1032:1) */
const PUSH_SLICE = 8 * 1024;

/**
 * A forward-only reader over the gunzipped content of a .gz source (single or multi-member),
 * streaming with fflate: skipped output is dropped, so memory stays at about one push's output plus
 * the bytes asked for. Enforces the gzip-bomb limits: total output and output:input ratio.
 */
export function openGunzipCursor(gz: ByteSource, limits: ArchiveLimits): TarCursor {
  const chunks: Uint8Array[] = [];
  /** stream offset of chunks[0][0] */
  let headOffset = 0;
  let buffered = 0;
  let produced = 0;
  let consumed = 0;
  let ended = false;

  const gunzip = new Gunzip((chunk, final) => {
    produced += chunk.length;
    if (produced > limits.maxTotalBytes) {
      throw bomb(`expected the gzip stream to expand to at most ${limits.maxTotalBytes} bytes, found more`);
    }
    if (produced > limits.ratioFloor && produced / Math.max(1, consumed) > limits.maxRatio) {
      throw bomb(`expected the gzip stream to expand at most ${limits.maxRatio}:1, found ${produced} bytes from ${consumed} compressed bytes`);
    }
    if (chunk.length > 0) {
      chunks.push(chunk);
      buffered += chunk.length;
    }
    if (final) ended = true;
  });

  function bomb(detail: string): DecodeError {
    return new DecodeError({ code: 'limit-exceeded', detail: `${detail}: refusing a possible gzip bomb`, file: gz.name, offset: consumed });
  }

  function drop(upTo: number): void {
    while (chunks.length > 0 && headOffset + chunks[0]!.length <= upTo) {
      headOffset += chunks[0]!.length;
      buffered -= chunks[0]!.length;
      chunks.shift();
    }
  }

  async function pump(): Promise<void> {
    const n = Math.min(READ_SLICE, gz.size - consumed);
    const slice = await gz.read(consumed, n);
    for (let p = 0; p < slice.length; p += PUSH_SLICE) {
      const part = slice.subarray(p, Math.min(p + PUSH_SLICE, slice.length));
      const at = consumed;
      consumed += part.length;
      try {
        gunzip.push(part, consumed >= gz.size);
      } catch (e) {
        if (isDecodeError(e)) throw e;
        throw new DecodeError({
          code: 'corrupt-compression',
          detail: `expected a valid gzip stream, found corrupt data (${e instanceof Error ? e.message : String(e)})`,
          file: gz.name,
          offset: at,
          cause: e,
        });
      }
    }
  }

  return {
    name: gz.name,
    async read(offset, length) {
      if (offset < headOffset) throw new Error(`gunzip cursor over ${gz.name} read backwards (${offset} < ${headOffset})`);
      drop(offset);
      while (headOffset + buffered < offset + length && !ended && consumed < gz.size) {
        await pump();
        drop(offset);
      }
      const end = Math.min(offset + length, headOffset + buffered);
      const out = new Uint8Array(Math.max(0, end - offset));
      let p = headOffset;
      for (const c of chunks) {
        const from = Math.max(offset, p);
        const to = Math.min(end, p + c.length);
        if (to > from) out.set(c.subarray(from - p, to - p), from - offset);
        p += c.length;
        if (p >= end) break;
      }
      return out;
    },
  };
}
