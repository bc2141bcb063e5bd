/**
 * Absolute state handles read where they point. A checkpoint names its files by the URI they were
 * written to (`s3://bucket/flink/checkpoints/<job>/shared/<uuid>`, `file:/…`); openSavepoint resolves a
 * handle first by base name next to `_metadata`, then through SavepointFiles.resolveAbsolute. This adds,
 * to that resolveAbsolute:
 *
 * - `--path-map FROM=TO` (core/io path-map.ts): a handle whose path starts with FROM is read at TO + the
 *   rest, from S3 (`s3://…`), Azure (`abfss://…`, `wasbs://…`), HDFS (`hdfs://…`, `webhdfs://…`) or a local file (`file:///…`, `/…`),
 *   before anything else;
 * - a handle naming an `s3://` (`s3a://`, `s3p://`) or Azure (`abfs://`, `abfss://`, `wasb://`, `wasbs://`)
 *   URI that the input itself does not hold is read from the store it names.
 *
 * Each such file is a lazy source: opening costs nothing, and files never read are never fetched. Its
 * size is the largest the handles naming it record (a file's size, a merged file's segment end); the
 * first read asks the object's (or file's) real size (an S3 HEAD, which pins its ETag) and refuses a
 * range beyond it.
 */
import { applyPathMap, DecodeError, localPathOf, type ByteSource, type PathMapping, type SavepointFiles } from '../../core/io';
import { openNodeFileSource } from './node-file-source';
import { objectIn } from './object-store';
import type { ObjectStores } from './object-stores';
import { openPinnedObjectSource } from './open-pinned-object-source';

export function readAbsoluteHandles(files: SavepointFiles, pathMap: readonly PathMapping[], stores: ObjectStores): SavepointFiles {
  const opened = new Map<string, { source: GrowingSource; path: string }>();
  const inner = files.resolveAbsolute?.bind(files);
  const resolveAbsolute = (path: string, recordedSize?: number): { source: ByteSource; path: string } | undefined => {
    const mapped = applyPathMap(path, pathMap);
    if (mapped === undefined) {
      const here = inner?.(path, recordedSize);
      if (here !== undefined || stores.locate(path) === undefined || stores.readsUnmapped?.(path) === false) return here;
    }
    const target = mapped ?? path;
    let found = opened.get(target);
    if (found === undefined) {
      const source = openTarget(target, stores);
      if (source === undefined) return inner?.(path, recordedSize);
      found = { source, path: target };
      opened.set(target, found);
    }
    found.source.grow(recordedSize ?? 0);
    return found;
  };
  return { ...files, resolveRelative: files.resolveRelative.bind(files), resolveAbsolute };
}

/** A lazy source whose size is the largest any handle records for it (handles are resolved before they are read). */
interface GrowingSource extends ByteSource {
  grow(size: number): void;
}

function openTarget(target: string, stores: ObjectStores): GrowingSource | undefined {
  let open: () => Promise<ByteSource>;
  const at = stores.locate(target);
  if (at !== undefined) {
    open = async () => {
      const bucket = await at.bucket();
      const object = objectIn(bucket, at.key);
      const info = await object.head();
      if (info === undefined)
        throw new DecodeError({ code: 'missing-file', file: target, detail: `expected the state file ${target}${await object.missing()}` });
      return openPinnedObjectSource(object, { known: info, name: target });
    };
  } else {
    const local = localPathOf(target);
    if (local === undefined) return undefined;
    open = () =>
      openNodeFileSource(local, target).catch((e: unknown) => {
        const code = (e as { code?: unknown }).code;
        throw new DecodeError({
          code: 'missing-file',
          file: target,
          detail: `expected the state file ${local} (mapped by --path-map), found ${code === 'ENOENT' ? 'no such file' : String((e as Error).message)}`,
          cause: e,
        });
      });
  }
  let size = 0;
  let source: Promise<ByteSource> | undefined;
  return {
    name: target,
    get size() {
      return size;
    },
    grow(n) {
      size = Math.max(size, n);
    },
    async read(offset, length) {
      if (offset < 0 || length < 0 || offset + length > size) {
        throw new DecodeError({ code: 'truncated', detail: `expected ${length} bytes at offset ${offset}, found a ${size}-byte file`, file: target, offset });
      }
      const real = await (source ??= open());
      if (offset + length > real.size) {
        throw new DecodeError({
          code: 'truncated',
          file: target,
          offset: real.size,
          detail: `expected ${target} to hold the ${size} bytes its state handle records, found ${real.size} bytes`,
        });
      }
      return real.read(offset, length);
    },
  };
}
