/**
 * Reads one `StreamStateHandle` of `_metadata`: an unsigned type-code byte, then the
 * handle's fields. Inline data (code 1) is returned as a view into the input with its absolute offset.
 */
import type { ByteReader } from '../../io';
import { checkHandleDepth, readHandleLong, readHandleOffsets, readKeyGroupRange } from './read-handle-primitives';
import type { StreamHandle } from './metadata-types';

const STREAM_CODES = '0, 1, 2, 3, 6, 15 or 16';
const KEYED_OR_OPERATOR_CODES = new Set([4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 17]);

export function readStreamHandle(r: ByteReader, depth = 0): StreamHandle | null {
  checkHandleDepth(r, depth, 'stream handles');
  const at = r.position;
  const code = r.readU8('stream handle type code');
  switch (code) {
    case 0:
      return null;
    case 1: {
      const name = r.readUtf('inline handle name');
      const lengthAt = r.position;
      const size = r.readI32('inline handle data length');
      if (size < 0) throw r.error('invalid-value', `expected a non-negative inline handle data length, found ${size}`, lengthAt);
      if (size > r.remaining) {
        throw r.error('truncated', `expected ${size} bytes of inline state data, found ${r.remaining}`, r.position);
      }
      const offset = r.absolutePosition;
      const data = r.readBytes(size, 'inline state data');
      return { kind: 'inline', name, size, offset, data };
    }
    case 2: {
      const size = readHandleLong(r, 'file handle state size', true);
      const pathOffset = r.absolutePosition;
      const path = r.readUtf('file handle path');
      return { kind: 'file', path, size, pathOffset };
    }
    case 3: {
      const range = readKeyGroupRange(r, 'legacy key-groups stream handle');
      const offsets = readHandleOffsets(r, range.end - range.start + 1, 'key-group offsets', new Map(), true);
      const delegate = readStreamHandle(r, depth + 1);
      return { kind: 'legacy-key-groups', range, offsets, delegate };
    }
    case 6: {
      const pathOffset = r.absolutePosition;
      const relativePath = r.readUtf('relative file handle path');
      const size = readHandleLong(r, 'relative file handle state size', true);
      return { kind: 'relative-file', relativePath, size, pathOffset };
    }
    case 15: {
      const start = readHandleLong(r, 'segment start position');
      const size = readHandleLong(r, 'segment state size');
      const scopeAt = r.position;
      const scope = r.readI32('segment scope');
      if (scope !== 0 && scope !== 1) {
        throw r.error('invalid-value', `expected segment scope 0 (EXCLUSIVE) or 1 (SHARED), found ${scope}`, scopeAt);
      }
      const pathOffset = r.absolutePosition;
      const physicalPath = r.readUtf('segment physical file path');
      const logicalFileId = r.readUtf('segment logical file id');
      return { kind: 'segment-file', physicalPath, logicalFileId, start, size, scope: scope === 0 ? 'EXCLUSIVE' : 'SHARED', pathOffset };
    }
    case 16:
      return { kind: 'empty-segment' };
    default:
      if (KEYED_OR_OPERATOR_CODES.has(code)) {
        throw r.error(
          'invalid-value',
          `expected a stream state handle type code (${STREAM_CODES}), found ${code}, which is a keyed or operator handle code`,
          at,
        );
      }
      throw r.error('invalid-value', `expected a stream state handle type code (${STREAM_CODES}), found ${code}`, at);
  }
}
