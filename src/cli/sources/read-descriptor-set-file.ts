import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { DecodeError, wrongInput } from '../../core/io';
import { MAX_DESCRIPTOR_BYTES } from '../../core/protobuf';

/**
 * Reads a descriptor set named on the command line (`--descriptors`, `compare`'s files). Only a
 * regular file is read: a FIFO, a device (/dev/zero, /dev/urandom), a socket or a folder is a
 * `bad-path` UsageError before anything is opened (opening a FIFO would wait for a writer). A file
 * larger than MAX_DESCRIPTOR_BYTES (64 MiB: the serializer snapshot's own bound on a descriptor
 * set, so no larger schema could ever be saved; real sets are kilobytes to a few megabytes) is
 * refused with its size and the limit. At most the size stat gave is read.
 */
export async function readDescriptorSetFile(path: string): Promise<Uint8Array> {
  checkRegularFile(await stat(path), path, 'a descriptor set');
  // O_NONBLOCK: should the path have become a FIFO since the stat, opening it does not wait for a writer
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    checkRegularFile(info, path, 'a descriptor set');
    if (info.size > MAX_DESCRIPTOR_BYTES) {
      throw new DecodeError({
        code: 'limit-exceeded',
        file: path,
        offset: 0,
        detail: `expected a descriptor set of at most ${MAX_DESCRIPTOR_BYTES} bytes (64 MiB, the most a serializer snapshot can hold), found a file of ${info.size} bytes`,
      });
    }
    const bytes = new Uint8Array(info.size);
    let got = 0;
    while (got < bytes.length) {
      const { bytesRead } = await handle.read(bytes, got, bytes.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return got === bytes.length ? bytes : bytes.subarray(0, got);
  } finally {
    await handle.close();
  }
}

/** A path that is not a regular file is refused, saying what it is. */
export function checkRegularFile(info: Stats, path: string, expected: string): void {
  if (info.isFile()) return;
  throw wrongInput('bad-path', `expected ${expected} (a regular file), found ${describeFileKind(info)}: ${path}`);
}

/** What a non-regular entry is, for messages: "a FIFO (named pipe)", "a character device", … */
export function describeFileKind(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'something other than a file';
}
