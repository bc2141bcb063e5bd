import { Gunzip } from 'fflate';
import type { ByteSource } from './byte-source';
import { checkGzipMemberHeader } from './check-gzip-member-header';
import { computeCrc32 } from './compute-crc32';
import { DecodeError, isDecodeError } from './decode-error';
import type { ArchiveLimits } from './input-file';
import type { TarCursor } from './walk-tar-members';
import { formatHex } from './format-hex';

const READ_SLICE = 64 * 1024;
/** compressed bytes per push: bounds what one push can expand to (DEFLATE tops out near 1032:1) */
const PUSH_SLICE = 8 * 1024;

/** A gunzip cursor that can also be drained to the end of the stream, which verifies every member's trailer. */
export interface GunzipCursor extends TarCursor {
  /** inflates (and drops) the rest of the stream: the last member's CRC-32 and size are checked only once its end is reached */
  finish(): Promise<void>;
}

/**
 * A forward-only reader over the gunzipped content of a .gz source (single or multi-member),
 * streaming with fflate: skipped output is dropped, so memory stays at about one push's output plus
 * the bytes asked for. Enforces the gzip-bomb limits: total output and output:input ratio.
 *
 * fflate does not check a member's trailer, so this does (RFC 1952): as a member ends, the CRC-32
 * and size (mod 2^32) of what it inflated to must match the 8 bytes that close it — a damaged
 * member, a wrong size or a missing trailer is a `corrupt-compression` error naming the member, its
 * start and where the trailer was expected.
 */
export function openGunzipCursor(gz: ByteSource, limits: ArchiveLimits): GunzipCursor {
  const chunks: Uint8Array[] = [];
  /** stream offset of chunks[0][0] */
  let headOffset = 0;
  let buffered = 0;
  let produced = 0;
  let consumed = 0;
  let ended = false;

  /** the member being inflated: its number, where its header starts, and the CRC-32 and size (mod 2^32) of its output so far */
  const member = { index: 1, start: 0, crc: 0, size: 0 };
  /** the compressed slices read last (a trailer is the 8 bytes before the next member, or the end) */
  let previousSlice: { start: number; bytes: Uint8Array } = { start: 0, bytes: new Uint8Array(0) };
  let currentSlice: { start: number; bytes: Uint8Array } = { start: 0, bytes: new Uint8Array(0) };
  let lastVerified = false;
  /** the compressed bytes pushed last: where an inflate error lies */
  let lastPush = { start: 0, length: 0 };

  const byteAt = (at: number): number | undefined => {
    for (const s of [currentSlice, previousSlice]) if (at >= s.start && at < s.start + s.bytes.length) return s.bytes[at - s.start];
    return undefined;
  };
  const readU32 = (at: number): number | undefined => {
    const b = [0, 1, 2, 3].map((k) => byteAt(at + k));
    return b.some((x) => x === undefined) ? undefined : (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
  };
  /** the member ends just before `end` (the next member's header, or the end of the file): check its trailer */
  const verifyMember = (end: number) => {
    const at = end - 8;
    const what = `gzip member #${member.index} (from offset ${member.start})`;
    // the smallest member: a 10-byte header, an empty DEFLATE block (2 bytes), the trailer
    if (at < member.start + 12) {
      throw new DecodeError({
        code: 'corrupt-compression',
        detail: `expected ${what} to end with its CRC-32 and size (8 bytes), found the stream ends after ${end - member.start} bytes: its trailer is missing`,
        file: gz.name,
        offset: end,
      });
    }
    const crc = readU32(at);
    const size = readU32(at + 4);
    if (crc !== member.crc || size !== member.size) {
      const hex = (v: number | undefined) => (v === undefined ? '?' : `0x${v.toString(16).padStart(8, '0')}`);
      throw new DecodeError({
        code: 'corrupt-compression',
        detail: `expected ${what} to end with the CRC-32 ${hex(member.crc)} and size ${member.size} of what it inflates to, found CRC-32 ${hex(crc)} and size ${size ?? '?'}: the member is damaged or its trailer is missing`,
        file: gz.name,
        offset: at,
      });
    }
  };

  const gunzip = new Gunzip((chunk, final) => {
    member.crc = computeCrc32(chunk, member.crc);
    member.size = (member.size + chunk.length) >>> 0;
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
  // called as the next member's header has been read: the member before it is complete
  gunzip.onmember = (offset) => {
    verifyMember(offset);
    member.index++;
    member.start = offset;
    member.crc = 0;
    member.size = 0;
  };

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
    try {
      await inflateNextSlice();
    } catch (e) {
      throw await explainFailure(e);
    }
  }

  async function inflateNextSlice(): Promise<void> {
    const n = Math.min(READ_SLICE, gz.size - consumed);
    const slice = await gz.read(consumed, n);
    previousSlice = currentSlice;
    currentSlice = { start: consumed, bytes: slice };
    for (let p = 0; p < slice.length; p += PUSH_SLICE) {
      const part = slice.subarray(p, Math.min(p + PUSH_SLICE, slice.length));
      lastPush = { start: consumed, length: part.length };
      consumed += part.length;
      gunzip.push(part, consumed >= gz.size);
    }
    // the last member ends with the file
    if (consumed >= gz.size && !lastVerified) {
      lastVerified = true;
      verifyMember(gz.size);
    }
  }

  /**
   * What went wrong, said precisely: a damaged member header (checked only now, on failure), trailing data
   * after the last member, a stream that ends inside a member, or DEFLATE data that does not inflate (located
   * at the compressed bytes being inflated). A bomb limit is kept as it is.
   */
  /** where the current member's trailer (its CRC-32 and size, complete once it inflated whole) ends, if found in the slices at hand */
  function findTrailerEnd(): number | undefined {
    const from = Math.max(member.start + 12, previousSlice.bytes.length > 0 ? previousSlice.start : currentSlice.start);
    for (let at = from; at + 8 <= currentSlice.start + currentSlice.bytes.length; at++) {
      if (readU32(at) === member.crc && readU32(at + 4) === member.size) return at + 8;
    }
    return undefined;
  }

  async function explainFailure(e: unknown): Promise<unknown> {
    if (isDecodeError(e) && e.code === 'limit-exceeded') return e;
    if (!isDecodeError(e) && !(e instanceof Error)) return e;
    const header = await checkGzipMemberHeader(gz, member.start, member.index).catch(() => undefined);
    if (header) return header;
    if (isDecodeError(e)) return e;
    const what = `gzip member #${member.index} (from offset ${member.start})`;
    // fflate says "invalid gzip data" only of a header; with this member's header sound, it is the header of the
    // next member: the member inflated whole, and what follows its trailer is not a gzip member
    if (/invalid gzip data/i.test(e.message)) {
      const end = findTrailerEnd();
      if (end !== undefined && end < gz.size) {
        const next = await gz.read(end, Math.min(4, gz.size - end));
        const hex = formatHex(next, ' ');
        return new DecodeError({
          code: 'corrupt-compression',
          detail: `expected another gzip member (1f 8b) or the end of the file after ${what}, which ends at offset ${end}, found ${gz.size - end} bytes of trailing data starting ${hex}`,
          file: gz.name,
          offset: end,
          cause: e,
        });
      }
    }
    if (/unexpected EOF/i.test(e.message)) {
      return new DecodeError({
        code: 'truncated',
        detail: `expected the rest of ${what}, found the file ends at offset ${gz.size}: the archive is truncated`,
        file: gz.name,
        offset: gz.size,
        cause: e,
      });
    }
    return new DecodeError({
      code: 'corrupt-compression',
      detail: `expected DEFLATE data in ${what}, found data that does not inflate (${e.message}) in compressed bytes ${lastPush.start}–${lastPush.start + lastPush.length - 1}`,
      file: gz.name,
      offset: lastPush.start,
      cause: e,
    });
  }

  return {
    name: gz.name,
    async finish() {
      while (consumed < gz.size) {
        await pump();
        drop(headOffset + buffered);
      }
    },
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
