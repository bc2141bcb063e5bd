/**
 * Reads one `KeyedStateHandle` of `_metadata`: a signed type-code byte, then the
 * handle. Codes 3/7/12 (key groups) are read here; incremental (5/11) and changelog (8/9/10/13/14)
 * handles in their own files.
 */
import type { ByteReader } from '../../io';
import { readChangelogStateHandle } from './read-changelog-state-handle';
import { checkHandleDepth, readHandleOffsets, readKeyGroupRange } from './read-handle-primitives';
import { readIncrementalStateHandle } from './read-incremental-state-handle';
import { readStreamHandle } from './read-stream-handle';
import type { KeyedStateHandle } from './metadata-types';

const KEYED_CODES = '0, 3, 5, 7, 8, 9, 10, 11, 12, 13 or 14';

export function readKeyedStateHandle(r: ByteReader, depth = 0): KeyedStateHandle | null {
  checkHandleDepth(r, depth, 'keyed state handles');
  const at = r.position;
  const code = r.readI8('keyed state handle type code');
  switch (code) {
    case 0:
      return null;
    case 3:
    case 7:
    case 12: {
      const range = readKeyGroupRange(r);
      const offsets = readHandleOffsets(r, range.end - range.start + 1, 'key-group offsets', new Map(), true);
      const delegate = readStreamHandle(r, depth + 1);
      if (code !== 12) return { kind: 'key-groups', code, range, offsets, delegate };
      const handleId = r.readUtf('state handle id');
      return { kind: 'key-groups', code, range, offsets, delegate, handleId };
    }
    case 5:
    case 11:
      return readIncrementalStateHandle(r, code, depth);
    case 8:
    case 9:
    case 10:
    case 13:
    case 14:
      return readChangelogStateHandle(r, code, depth, readKeyedStateHandle);
    default: {
      const hint =
        code === 1 || code === 2 || code === 6 || code === 15 || code === 16
          ? ', which is a stream handle code'
          : code === 4 || code === 17
            ? ', which is an operator handle code'
            : '';
      throw r.error('invalid-value', `expected a keyed state handle type code (${KEYED_CODES}), found ${code}${hint}`, at);
    }
  }
}
