import { compress } from 'snappyjs';
import { computeMaskedCrc32c } from './compute-crc32';
import { SNAPPY_MAX_CHUNK_DATA, SNAPPY_STREAM_IDENTIFIER } from './decode-snappy-chunk';
import { writeU24LE, writeU32LE } from './little-endian';

export interface SnappyFramedWriteOptions {
  /** write the stream identifier chunk first (default true) */
  readonly identifier?: boolean;
  /**
   * 'auto' (default) compresses and falls back to an uncompressed chunk when the block is not
   * smaller than 85% of the data, as xerial's SnappyFramedOutputStream (Flink's writer) does.
   */
  readonly chunks?: 'auto' | 'compressed' | 'uncompressed';
  /** data bytes per chunk, at most 65536 (default 65536) */
  readonly chunkSize?: number;
}

/**
 * Writes data in the Snappy framing format. No public savepoint uses snapshot compression, so tests
 * (and fixtures) build compressed keyed blocks and operator state with this.
 */
export function writeSnappyFramed(data: Uint8Array, options: SnappyFramedWriteOptions = {}): Uint8Array {
  return writeSnappyFramedSegments([data], options).bytes;
}

/**
 * Writes several segments into one framed stream, starting each segment on a fresh chunk (as
 * Flink's operator-state writer flushes before recording an offset). Returns the stream and the
 * offset of each segment's first chunk (relative to the start of the returned bytes).
 */
export function writeSnappyFramedSegments(
  segments: readonly Uint8Array[],
  options: SnappyFramedWriteOptions = {},
): { bytes: Uint8Array; segmentOffsets: number[] } {
  const size = options.chunkSize ?? SNAPPY_MAX_CHUNK_DATA;
  if (!Number.isInteger(size) || size < 1 || size > SNAPPY_MAX_CHUNK_DATA) throw new RangeError(`chunkSize must be 1…${SNAPPY_MAX_CHUNK_DATA}, got ${size}`);
  const parts: Uint8Array[] = [];
  let length = 0;
  const push = (b: Uint8Array): void => {
    parts.push(b);
    length += b.length;
  };
  if (options.identifier ?? true) push(Uint8Array.from(SNAPPY_STREAM_IDENTIFIER));
  const segmentOffsets: number[] = [];
  for (const segment of segments) {
    segmentOffsets.push(length);
    for (let p = 0; p < segment.length; p += size) push(writeChunk(segment.subarray(p, Math.min(p + size, segment.length)), options.chunks ?? 'auto'));
  }
  const bytes = new Uint8Array(length);
  let q = 0;
  for (const part of parts) {
    bytes.set(part, q);
    q += part.length;
  }
  return { bytes, segmentOffsets };
}

function writeChunk(data: Uint8Array, mode: 'auto' | 'compressed' | 'uncompressed'): Uint8Array {
  let type = 0x01;
  let payload = data;
  if (mode !== 'uncompressed') {
    const block = compress(Uint8Array.from(data));
    if (mode === 'compressed' || block.length < data.length * 0.85) {
      type = 0x00;
      payload = block;
    }
  }
  const chunk = new Uint8Array(8 + payload.length);
  chunk[0] = type;
  writeU24LE(chunk, 1, 4 + payload.length);
  writeU32LE(chunk, 4, computeMaskedCrc32c(data));
  chunk.set(payload, 8);
  return chunk;
}
