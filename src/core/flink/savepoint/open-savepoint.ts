/**
 * Opens a savepoint input (SavepointFiles): reads `_metadata`, and resolves stream handles to byte
 * sources: inline → a view into `_metadata` with absolute offsets; relative → the file
 * next to `_metadata`; absolute (code 2) and segment paths → by base name, with a warning; missing
 * → DecodeError `missing-file` naming the file, operator and subtask.
 */
import { bytesSource, checkMetadataSize, DecodeError, forwardReadInto, readAll, type ByteSource, type SavepointFiles } from '../../io';
import { computeSavepointTotals, type SavepointTotals } from './open-savepoint-totals';
import { createMissingFileError } from './missing-file-error';
import { formatOperatorPathSegment } from '../metadata/read-checkpoint-metadata-operator';
import { dropDuplicateStructures } from '../metadata/drop-duplicate-structures';
import { readCheckpointMetadata } from '../metadata/read-checkpoint-metadata';
import type { CheckpointMetadata, StreamHandle } from '../metadata/metadata-types';
import type { ResolvedStreamHandle, StreamHandleContext } from './stream-handle-types';

export interface OpenedSavepoint {
  files: SavepointFiles;
  metadata: CheckpointMetadata;
  /** name of the `_metadata` source */
  metadataFile: string;
  /** `_metadata`'s bytes as read, once (a report's SHA-256 of `_metadata` is computed from them, not from a second read); inline state handles are views into them */
  metadataBytes: Uint8Array;
  totals: SavepointTotals;
  /** input warnings plus absolute-path resolutions and missing files found while totalling */
  warnings: string[];
  resolveStreamHandle(handle: StreamHandle, context?: StreamHandleContext): ResolvedStreamHandle;
}

/** `_metadata`'s bytes read as openSavepoint reads them (an operator, state list or handle held twice: once, with a warning). */
export function readSavepointMetadata(bytes: Uint8Array, name: string): CheckpointMetadata {
  return dropDuplicateStructures(readCheckpointMetadata(bytes, name));
}

export async function openSavepoint(files: SavepointFiles): Promise<OpenedSavepoint> {
  const source = files.metadata;
  // `_metadata` is read whole: above MAX_METADATA_BYTES it is refused first
  checkMetadataSize(source);
  // an operator, a state list or a handle `_metadata` holds twice is read once, with a warning
  const metadataBytes = await readAll(source);
  const metadata = readSavepointMetadata(metadataBytes, source.name);
  const resolve = (handle: StreamHandle, context: StreamHandleContext = {}) => resolveStreamHandle(files, handle, context);
  const totals = computeSavepointTotals(metadata, files, resolve);
  return {
    files,
    metadata,
    metadataFile: source.name,
    metadataBytes,
    totals,
    warnings: [...files.warnings, ...(metadata.warnings ?? []), ...totals.warnings],
    resolveStreamHandle: resolve,
  };
}

export function resolveStreamHandle(files: SavepointFiles, handle: StreamHandle, context: StreamHandleContext = {}): ResolvedStreamHandle {
  switch (handle.kind) {
    case 'inline':
      return { source: bytesSource(`${files.metadata.name}#${handle.name}`, handle.data), file: files.metadata.name, baseOffset: handle.offset, warnings: [] };
    case 'relative-file': {
      const source = files.resolveRelative(handle.relativePath);
      if (!source) throw missingFile(files, `state file "${handle.relativePath}"`, handle.relativePath, context, handle.pathOffset);
      return { source, file: source.name, baseOffset: 0, warnings: [] };
    }
    case 'file': {
      const { source, warning } = resolveByBaseName(files, handle.path, context, handle.pathOffset, handle.size);
      return { source, file: source.name, baseOffset: 0, warnings: [warning] };
    }
    case 'segment-file': {
      const { source, warning } = resolveByBaseName(files, handle.physicalPath, context, handle.pathOffset, handle.start + handle.size);
      if (handle.start + handle.size > source.size) {
        throw new DecodeError({
          code: 'truncated',
          detail: `expected a ${handle.size}-byte segment at offset ${handle.start} of ${source.name}, found a ${source.size}-byte file`,
          file: source.name,
          offset: handle.start,
          path: contextPath(context),
        });
      }
      return { source: rangeSource(source, handle.start, handle.size), file: source.name, baseOffset: handle.start, warnings: [warning] };
    }
    case 'empty-segment':
      return { source: bytesSource('(empty segment)', new Uint8Array(0)), file: '(empty segment)', baseOffset: 0, warnings: [] };
    case 'legacy-key-groups':
      if (handle.delegate === null) {
        throw new DecodeError({
          code: 'invalid-value',
          detail: 'expected a legacy key-groups handle with a data handle, found none',
          file: files.metadata.name,
          path: contextPath(context),
        });
      }
      return resolveStreamHandle(files, handle.delegate, context);
  }
}

/** Path segments for a handle's location: `operator 6730ef73… / subtask 2 / managed keyed state`. */
export function contextPath(context: StreamHandleContext): string[] {
  const path: string[] = [];
  if (context.operatorId !== undefined) path.push(formatOperatorPathSegment(context.operatorId));
  if (context.subtask !== undefined) path.push(`subtask ${context.subtask}`);
  if (context.role !== undefined) path.push(context.role);
  return path;
}

function resolveByBaseName(
  files: SavepointFiles,
  path: string,
  context: StreamHandleContext,
  pathOffset: number | undefined,
  recordedSize: number,
): { source: ByteSource; warning: string } {
  const base =
    path
      .replace(/[/\\]+$/, '')
      .split(/[/\\]/)
      .pop() ?? '';
  const source = base === '' ? undefined : files.resolveRelative(base);
  if (source) return { source, warning: `absolute path "${path}" resolved by base name "${base}" next to _metadata` };
  // Flink's checkpoint layout: chk-N/_metadata, its shared and task-owned files in folders beside it
  const elsewhere = base === '' ? undefined : files.resolveAbsolute?.(path, recordedSize);
  if (elsewhere) return { source: elsewhere.source, warning: `absolute path "${path}" resolved to '${elsewhere.path}' of ${files.name}` };
  // a checkpoint's shared/ or taskowned/ file sits beside its chk-N folder, not in it
  const beside = /[/\\](shared|taskowned)[/\\][^/\\]+$/.exec(path)?.[1];
  const hint = beside === undefined ? '' : `, a file of the checkpoint's ${beside}/ folder (open the folder that holds both chk-N and ${beside}/)`;
  throw missingFile(files, `state file "${base}" (absolute path "${path}"${hint})`, base, context, pathOffset);
}

/** The handle that names the file is in `_metadata`: the error is located there, with the handle's logical path. */
function missingFile(files: SavepointFiles, what: string, name: string, context: StreamHandleContext, pathOffset: number | undefined): DecodeError {
  return createMissingFileError(files, what, name, contextPath(context), pathOffset);
}

function rangeSource(parent: ByteSource, start: number, size: number): ByteSource {
  const name = `${parent.name}[${start}..${start + size})`;
  const read = (offset: number, length: number): Promise<Uint8Array> => {
    if (offset < 0 || length < 0 || offset + length > size) {
      return Promise.reject(
        new DecodeError({
          code: 'truncated',
          detail: `expected ${length} bytes at offset ${offset}, found a ${size}-byte segment`,
          file: parent.name,
          offset: start + offset,
        }),
      );
    }
    return parent.read(start + offset, length);
  };
  return { name, size, read, ...forwardReadInto(parent, start, size, read) };
}
