import { open, stat } from 'node:fs/promises';
import { DecodeError, type ByteSource } from '../../core/io';

/**
 * A ByteSource over a local file: each read opens the file, reads exactly the range with a
 * FileHandle and closes it again, so a savepoint with thousands of state files never holds
 * thousands of descriptors and nothing is loaded that was not asked for.
 */
export async function openNodeFileSource(path: string, name = path): Promise<ByteSource> {
  const size = (await stat(path)).size;
  return {
    name,
    size,
    async read(offset, length) {
      if (offset < 0 || length < 0 || offset + length > size) {
        throw new DecodeError({ code: 'truncated', detail: `expected ${length} bytes at offset ${offset}, found a ${size}-byte file`, file: name, offset });
      }
      const out = new Uint8Array(length);
      if (length === 0) return out;
      const fh = await open(path, 'r');
      try {
        let got = 0;
        while (got < length) {
          const { bytesRead } = await fh.read(out, got, length - got, offset + got);
          if (bytesRead === 0) break;
          got += bytesRead;
        }
        if (got < length) {
          throw new DecodeError({ code: 'truncated', detail: `expected ${length} bytes at offset ${offset}, found ${got}: the file shrank while it was read`, file: name, offset });
        }
      } finally {
        await fh.close();
      }
      return out;
    },
  };
}
