/**
 * How many worker threads a scan of `input` should use: the requested number, except for a gzip
 * input (.tar.gz, local or over HTTP), which can only be read by inflating from its start — every
 * worker would download and inflate the whole stream again and buffer its own copy, for no gain
 * over one thread. Folders, zip and tar archives and `_metadata` files keep the requested number.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { detectInputKind, type ByteSource } from '../../core/io';
import { isHttpFolderUrl, openNodeFileSource, openNodeHttpSource } from '../sources';

/** The most worker threads `--workers` may ask for (each one opens the input and holds its own read buffers). */
export const MAX_SCAN_WORKERS = 64;

export async function countScanWorkers(input: string, requested: number): Promise<number> {
  if (requested <= 1) return requested;
  let source: ByteSource | undefined;
  if (/^https?:\/\//i.test(input)) {
    if (!isHttpFolderUrl(input)) source = await openNodeHttpSource(input).catch(() => undefined);
  } else {
    const abs = path.resolve(input);
    if ((await stat(abs).catch(() => undefined))?.isFile()) source = await openNodeFileSource(abs, input);
  }
  if (source === undefined) return requested;
  return (await detectInputKind(source)).kind === 'gzip' ? 1 : requested;
}
