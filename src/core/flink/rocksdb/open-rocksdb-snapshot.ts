/**
 * A RocksDB native snapshot of one subtask (an incremental keyed handle, code 5/11): its shared and
 * private files by local path (`CURRENT`, `MANIFEST-*`, `OPTIONS-*`, `NNNNNN.sst`), the MANIFEST that
 * `CURRENT` names, replayed to the live table files of each column family; column family name = Flink
 * state name. Files are resolved through the savepoint's stream handles (relative, absolute, inline,
 * file-merging segments); a file the MANIFEST needs and the handle does not name is a `missing-file`.
 */
import { DecodeError, type ByteSource } from '../../io';
import type { KeyedStateHandle, StreamHandle } from '../metadata/metadata-types';
import type { OpenedSavepoint } from '../savepoint/open-savepoint';
import type { StreamHandleContext } from '../savepoint/stream-handle-types';
import { decodeUtf8 } from './rocksdb-cursor';
import { readRocksDbManifest, type LiveTableFile, type RocksDbVersion } from './read-rocksdb-manifest';
import { openSstTable, type ExpectedTableSize, type SstTable } from './open-sst-table';

export type IncrementalHandle = Extract<KeyedStateHandle, { kind: 'incremental' }>;

export interface RocksDbSnapshot {
  version: RocksDbVersion;
  /** the MANIFEST's local path */
  manifest: string;
  /** the file the MANIFEST was read from (named in errors about what it holds) */
  manifestFile: string;
  /** resolves a table file by number, or throws missing-file; `recordedSize`: the size the savepoint's handle records (when it does) */
  openTableFile(number: number, columnFamily: string): { source: ByteSource; file: string; recordedSize?: number };
  /** the table file opened (footer, meta-index, properties, range deletions), once per snapshot: a failed open is not kept */
  openTable(number: number, columnFamily: string): Promise<SstTable>;
}

/** a MANIFEST above this is refused before it is read whole */
const MAX_MANIFEST_BYTES = 256 * 1024 * 1024;

export async function openRocksDbSnapshot(opened: OpenedSavepoint, handle: IncrementalHandle, context: StreamHandleContext): Promise<RocksDbSnapshot> {
  const byPath = new Map<string, StreamHandle | null>();
  for (const f of [...handle.sharedFiles, ...handle.privateFiles]) byPath.set(f.localPath.replace(/^.*[/\\]/, ''), f.handle);
  const where = `${context.operatorId === undefined ? '' : `operator ${context.operatorId.slice(0, 8)}… `}subtask ${context.subtask ?? '?'}`;
  // where the handle sits in _metadata (its first file's path), for what only the handle can locate
  const handleAt = [handle.metaData, ...handle.sharedFiles.map((f) => f.handle), ...handle.privateFiles.map((f) => f.handle)]
    .map((h) =>
      h !== null && (h.kind === 'relative-file' || h.kind === 'file' || h.kind === 'segment-file') ? h.pathOffset : h?.kind === 'inline' ? h.offset : undefined,
    )
    .find((o) => o !== undefined);
  /** a file the handle should hold; `at`: the file and offset that name it (CURRENT, the MANIFEST), else the handle in _metadata */
  const missing = (name: string, why: string, at?: { file: string; offset: number }) =>
    new DecodeError({
      code: 'missing-file',
      detail: `expected the RocksDB file ${name} (${why}) among the ${byPath.size} files of ${where}'s incremental keyed handle, found none`,
      file: at?.file ?? opened.metadataFile,
      offset: at?.offset ?? handleAt ?? 0,
    });
  const resolve = (name: string, role: string) => {
    const h = byPath.get(name);
    if (h === undefined || h === null) return undefined;
    const r = opened.resolveStreamHandle(h, { ...context, role });
    // a file handle records the file's size (-1: not known)
    const recorded = (h.kind === 'relative-file' || h.kind === 'file') && h.size >= 0 ? h.size : undefined;
    return { source: r.source, file: r.source.name, baseOffset: r.baseOffset, name, recorded };
  };
  let manifestName: string;
  const current = resolve('CURRENT', 'RocksDB CURRENT');
  if (current) {
    const text = decodeUtf8(await current.source.read(0, Math.min(current.source.size, 4096)));
    manifestName = text.replace(/\r?\n$/, '');
    if (!/^MANIFEST-\d+$/.test(manifestName)) {
      throw new DecodeError({
        code: 'invalid-value',
        detail: `expected RocksDB's CURRENT to name a MANIFEST-NNNNNN file, found ${JSON.stringify(text.slice(0, 64))}`,
        file: current.file,
        offset: 0,
      });
    }
  } else {
    const manifests = [...byPath.keys()].filter((p) => p.startsWith('MANIFEST-'));
    if (manifests.length !== 1) throw missing('CURRENT', `it names the MANIFEST; the handle has ${manifests.length} MANIFEST files`);
    manifestName = manifests[0]!;
  }
  const manifest = resolve(manifestName, 'RocksDB MANIFEST');
  if (!manifest) throw missing(manifestName, 'the MANIFEST CURRENT names', current ? { file: current.file, offset: 0 } : undefined);
  if (manifest.source.size > MAX_MANIFEST_BYTES) {
    throw new DecodeError({
      code: 'limit-exceeded',
      detail: `expected a MANIFEST of at most ${MAX_MANIFEST_BYTES} bytes, found ${manifest.source.size}`,
      file: manifest.file,
      offset: 0,
    });
  }
  const manifestBytes = await manifest.source.read(0, manifest.source.size);
  const version = readRocksDbManifest(manifestBytes, manifest.source.name);
  const tables = new Map<number, Promise<SstTable>>();
  const snapshot: RocksDbSnapshot = {
    version,
    manifest: manifestName,
    manifestFile: manifest.source.name,
    openTableFile(number, columnFamily) {
      const name = `${String(number).padStart(6, '0')}.sst`;
      const r = resolve(name, `RocksDB table ${name}`) ?? resolve(name.replace(/\.sst$/, '.ldb'), `RocksDB table ${name}`);
      const live = findLiveFile(version, number);
      if (!r)
        throw missing(
          name,
          `a live table file of column family "${columnFamily}" in ${manifestName}`,
          live ? { file: manifest.source.name, offset: live.at } : undefined,
        );
      return { source: r.source, file: r.source.name, ...(r.recorded === undefined ? {} : { recordedSize: r.recorded }) };
    },
    openTable(number, columnFamily) {
      let p = tables.get(number);
      if (p === undefined) {
        const opening = (async () => {
          const { source, file, recordedSize } = snapshot.openTableFile(number, columnFamily);
          // the sizes the MANIFEST and _metadata's handle record, checked when a read of the table ends
          const live = findLiveFile(version, number);
          const expectedSizes: ExpectedTableSize[] = [
            ...(live ? [{ size: live.size, by: manifestName }] : []),
            ...(recordedSize !== undefined ? [{ size: recordedSize, by: "the savepoint's state handle" }] : []),
          ];
          return openSstTable(source, file, { expectedSizes });
        })();
        tables.set(number, (p = opening));
        opening.catch(() => {
          if (tables.get(number) === opening) tables.delete(number);
        });
      }
      return p;
    },
  };
  return snapshot;
}

function findLiveFile(version: RocksDbVersion, number: number): LiveTableFile | undefined {
  for (const cf of version.columnFamilies.values()) {
    const f = cf.files.get(number);
    if (f) return f;
  }
  return undefined;
}
