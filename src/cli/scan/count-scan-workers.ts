/**
 * How many worker threads a scan of `input` should use: the requested number, except for a gzip
 * input (.tar.gz, local or over HTTP), which can only be read by inflating from its start — every
 * worker would download and inflate the whole stream again and buffer its own copy, for no gain
 * over one thread. Folders, zip and tar archives and `_metadata` files keep the requested number.
 *
 * Telling costs the first two bytes of the input: one small Range request over HTTP. Anything that
 * goes wrong while telling (a missing or unreadable file, an HTTP error, a server that ignores
 * Range) keeps the requested number: the command opens the input itself and reports its own error.
 */
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { detectInputKind, type ByteSource } from '../../core/io';
import { createNodeRangeFetch, isHttpFolderUrl } from '../sources';

/** The most worker threads `--workers` may ask for (each one opens the input and holds its own read buffers). */
export const MAX_SCAN_WORKERS = 64;

/** Bytes read to tell a gzip stream (its two magic bytes). */
const HEAD_BYTES = 2;

export async function countScanWorkers(input: string, requested: number): Promise<number> {
  if (requested <= 1) return requested;
  const head = await readHead(input).catch(() => undefined);
  if (head === undefined) return requested;
  return (await detectInputKind(toSource(input, head))).kind === 'gzip' ? 1 : requested;
}

/** The first bytes of a file input; undefined for a folder (local or HTTP) or an HTTP answer that is not a range. */
async function readHead(input: string): Promise<Uint8Array | undefined> {
  if (/^https?:\/\//i.test(input)) {
    if (isHttpFolderUrl(input)) return undefined;
    // the bounded fetch (timeouts), and never more than the two bytes asked for, whatever the server sends
    const res = await createNodeRangeFetch()(input, { method: 'GET', headers: { Range: `bytes=0-${HEAD_BYTES - 1}` } });
    const reader = res.status === 206 ? res.body?.getReader?.() : undefined;
    if (reader === undefined) {
      await res.body?.cancel().catch(() => undefined);
      return undefined;
    }
    const head = new Uint8Array(HEAD_BYTES);
    let got = 0;
    try {
      while (got < HEAD_BYTES) {
        const { done, value } = await reader.read();
        if (done || value === undefined) break;
        const take = value.subarray(0, HEAD_BYTES - got);
        head.set(take, got);
        got += take.length;
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
    return head.subarray(0, got);
  }
  const abs = path.resolve(input);
  if (!(await stat(abs)).isFile()) return undefined;
  const file = await open(abs, 'r');
  try {
    const head = new Uint8Array(HEAD_BYTES);
    const { bytesRead } = await file.read(head, 0, HEAD_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

function toSource(name: string, bytes: Uint8Array): ByteSource {
  return { name, size: bytes.length, read: async (offset, length) => bytes.slice(offset, offset + length) };
}
