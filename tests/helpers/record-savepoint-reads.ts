/**
 * The input with every state-file read recorded as [relative path, offset, length]; with `failAfter`,
 * reads past that many are refused with a DecodeError (a stream that fails part-way).
 */
import { DecodeError, type ByteSource, type SavepointFiles } from '../../src/core/io';

export function recordSavepointReads(input: SavepointFiles, reads: [string, number, number][], failAfter = Infinity): SavepointFiles {
  return {
    ...input,
    resolveRelative(p) {
      const s = input.resolveRelative(p);
      if (!s) return undefined;
      const wrapped: ByteSource = {
        name: s.name,
        size: s.size,
        read(offset, length) {
          reads.push([p, offset, length]);
          if (reads.length > failAfter) return Promise.reject(new DecodeError({ code: 'truncated', detail: 'test: read refused', file: s.name, offset }));
          return s.read(offset, length);
        },
      };
      return wrapped;
    },
  };
}
