import { open, stat, type FileHandle } from 'node:fs/promises';
import { DecodeError, type ByteSource } from '../../core/io';

/**
 * A ByteSource over a local file. Reads go through a small process-wide pool of open file
 * handles (at most MAX_OPEN_FILES idle ones, least recently used closed first), so a scan that
 * reads one file in many ranges issues one `read` per range instead of open + read + close, and a
 * savepoint with thousands of state files still never holds thousands of descriptors. Nothing is
 * loaded that was not asked for.
 */
export async function openNodeFileSource(path: string, name = path): Promise<ByteSource> {
  const size = (await stat(path)).size;
  // one handle per source (not per path): a file replaced after this source was opened is not read through an older handle
  const slot = {};
  const checkRange = (offset: number, length: number): void => {
    if (offset < 0 || length < 0 || offset + length > size) {
      throw new DecodeError({ code: 'truncated', detail: `expected ${length} bytes at offset ${offset}, found a ${size}-byte file`, file: name, offset });
    }
  };
  const readInto = async (offset: number, length: number, target: Uint8Array): Promise<Uint8Array> => {
    checkRange(offset, length);
    const out = target.length === length ? target : target.subarray(0, length);
    if (length === 0) return out;
    const lease = await leaseFileHandle(slot, path);
    try {
      let got = 0;
      while (got < length) {
        const { bytesRead } = await lease.handle.read(out, got, length - got, offset + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      if (got < length) {
        throw new DecodeError({
          code: 'truncated',
          detail: `expected ${length} bytes at offset ${offset}, found ${got}: the file shrank while it was read`,
          file: name,
          offset,
        });
      }
    } finally {
      lease.release();
    }
    return out;
  };
  return {
    name,
    size,
    // the range is checked before the buffer is allocated: a length from hostile bytes never sizes an allocation
    read: async (offset, length) => {
      checkRange(offset, length);
      return readInto(offset, length, new Uint8Array(length));
    },
    readInto,
  };
}

/** Idle handles kept open; handles in use are never closed, so the pool may exceed this while reads run. */
export const MAX_OPEN_FILES = 16;

interface PooledHandle {
  opening: Promise<FileHandle>;
  handle?: FileHandle;
  users: number;
}

/** source → handle, in least-recently-used order (a Map iterates in insertion order) */
const pool = new Map<object, PooledHandle>();

async function leaseFileHandle(slot: object, path: string): Promise<{ handle: FileHandle; release: () => void }> {
  let entry = pool.get(slot);
  if (entry === undefined) {
    const opening = open(path, 'r');
    entry = { opening, users: 0 };
    const created = entry;
    // a failed open is not kept: the next read tries again and reports its own error
    opening.then((h) => (created.handle = h)).catch(() => pool.get(slot) === created && pool.delete(slot));
  } else {
    pool.delete(slot);
  }
  pool.set(slot, entry);
  entry.users++;
  const leased = entry;
  let handle: FileHandle;
  try {
    handle = await leased.opening;
  } catch (e) {
    leased.users--;
    throw e;
  }
  return {
    handle,
    release: () => {
      leased.users--;
      closeIdleHandles();
    },
  };
}

function closeIdleHandles(): void {
  let excess = pool.size - MAX_OPEN_FILES;
  for (const [slot, entry] of pool) {
    if (excess <= 0) break;
    if (entry.users > 0 || entry.handle === undefined) continue;
    pool.delete(slot);
    excess--;
    void entry.handle.close().catch(() => undefined);
  }
}

/** Handles open right now (for tests of the bound). */
export function countOpenFileHandles(): number {
  return pool.size;
}
