import type { ByteSource, SavepointFiles } from '../src/core/io';

/** The input with every read (`_metadata` and state files) counted in `counter.bytes`. */
export function countReads(input: SavepointFiles, counter: { bytes: number; reads: number }): SavepointFiles {
  const wrap = (s: ByteSource): ByteSource => ({
    name: s.name,
    size: s.size,
    read(offset, length) {
      counter.bytes += length;
      counter.reads++;
      return s.read(offset, length);
    },
  });
  const cache = new Map<string, ByteSource>();
  return {
    ...input,
    metadata: wrap(input.metadata),
    resolveRelative(path) {
      const s = input.resolveRelative(path);
      if (!s) return undefined;
      let w = cache.get(path);
      if (!w) cache.set(path, (w = wrap(s)));
      return w;
    },
  };
}
