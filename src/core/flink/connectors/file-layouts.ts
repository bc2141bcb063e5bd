/**
 * Byte layouts of the file connector's state (flink-connector-files: FileSource and FileSink), read from Flink's
 * sources and checked against the released classes of flink-connector-files / flink-file-sink-common /
 * flink-core 1.20.5 (docs/flink-formats.md, "Connector state"):
 * - FileSourceSplitSerializer v1: modified-UTF split id, the path (Path.serializeToDataOutputView: boolean
 *   present, then the URI's scheme, user info and host as nullable StringValues, int32 port, path, query and
 *   fragment as nullable StringValues), int64 offset, int64 length, int64 file modification time, int64 file
 *   size, int32 host count and modified-UTF hosts, boolean position present, int64 offset, int64 records after it;
 * - PendingSplitsCheckpointSerializer v1 (little-endian): int32 magic 0xDEADBEEF, int32 split serializer version,
 *   int32 split count, int32 path count, (int32 length, split)*, (int32 length, UTF-8 path)*;
 * - FileWriterBucketStateSerializer v3: int32 magic 0x1E764B79, the bucket id in SimpleVersionedSerialization's
 *   envelope (SimpleVersionedStringSerializer v1: little-endian int32 length, UTF-8), modified-UTF bucket path,
 *   int64 in-progress file creation time, boolean, the in-progress file recoverable in the envelope;
 * - FileSinkCommittableSerializer v2: int32 magic 0x1E765C80, modified-UTF bucket id, boolean + pending file
 *   (envelope), boolean + in-progress file to clean up (envelope), boolean + modified-UTF compacted file to clean up;
 * - OutputStreamBasedInProgressFileRecoverableSerializer v2: int32 magic 0xB3A4073D, boolean + modified-UTF path,
 *   the file system's resume recoverable (envelope); ...PendingFileRecoverableSerializer v2: int32 magic 0x2C853C89,
 *   boolean + modified-UTF path, int64 size, the commit recoverable (envelope);
 * - LocalRecoverableSerializer v1 (little-endian): int32 magic 0x1E744B57, int64 offset, int32 target length,
 *   int32 temp length, UTF-8 target file, UTF-8 temp file.
 * Every reader reads exactly its bytes: a layout that ends early or leaves bytes over is an error.
 */
import type { ByteReader } from '../../io';
import type { FileRecoverableView, FileSourceSplitView } from '../savepoint/connector-types';
import { readVersionedEnvelope } from './kafka-layouts';

export const PENDING_SPLITS_MAGIC = 0xdeadbeef | 0;
export const BUCKET_STATE_MAGIC = 0x1e764b79;
export const FILE_COMMITTABLE_MAGIC = 0x1e765c80;
const IN_PROGRESS_MAGIC = 0xb3a4073d | 0;
const PENDING_FILE_MAGIC = 0x2c853c89;
const LOCAL_RECOVERABLE_MAGIC = 0x1e744b57;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function expectEnd(r: ByteReader, what: string): void {
  if (r.remaining !== 0) throw r.error('invalid-value', `expected ${what} to end here, found ${r.remaining} more bytes`);
}

function hex(n: number): string {
  return (n >>> 0).toString(16).toUpperCase().padStart(8, '0');
}

function readI32LE(r: ByteReader, what: string): number {
  const b = r.readBytes(4, what);
  return b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24);
}

function readI64LE(r: ByteReader, what: string): bigint {
  const b = r.readBytes(8, what);
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(b[i]!);
  return BigInt.asIntN(64, v);
}

function readUtf8(r: ByteReader, n: number, what: string): string {
  const at = r.position;
  const bytes = r.readBytes(n, what);
  try {
    return utf8.decode(bytes);
  } catch {
    throw r.error('invalid-value', `expected UTF-8 text for ${what}, found invalid bytes`, at);
  }
}

function readLength(r: ByteReader, what: string, le: boolean): number {
  const at = r.position;
  const n = le ? readI32LE(r, `length of ${what}`) : r.readI32(`length of ${what}`);
  if (n < 0 || n > r.remaining) throw r.error('invalid-value', `expected a length of ${what} between 0 and the ${r.remaining} bytes left, found ${n}`, at);
  return n;
}

function readMagic(r: ByteReader, expected: number, what: string, le = false): void {
  const at = r.position;
  const magic = le ? readI32LE(r, `magic number of ${what}`) : r.readI32(`magic number of ${what}`);
  if (magic !== expected) throw r.error('bad-magic', `expected ${what}'s magic number ${hex(expected)}, found ${hex(magic)}`, at);
}

/** Flink's Path.serializeToDataOutputView: the URI's parts, put back together as Flink's Path prints them. */
function readFlinkPath(r: ByteReader, what: string): string {
  if (!r.readBool(`presence of ${what}`)) throw r.error('invalid-value', `expected ${what}, found none (a split always has a path)`, r.position - 1);
  const part = (name: string) => (r.readBool(`presence of the ${name} of ${what}`) ? (r.readStringValue(`${name} of ${what}`) ?? '') : null);
  const scheme = part('scheme');
  const userInfo = part('user info');
  const host = part('host');
  const port = r.readI32(`port of ${what}`);
  const path = part('path');
  const query = part('query');
  const fragment = part('fragment');
  const authority = host === null ? '' : `//${userInfo === null ? '' : `${userInfo}@`}${host}${port >= 0 ? `:${port}` : ''}`;
  return `${scheme === null ? '' : `${scheme}:`}${authority}${path ?? ''}${query === null ? '' : `?${query}`}${fragment === null ? '' : `#${fragment}`}`;
}

/** Whether a split element's payload starts like a FileSourceSplit v1 (UTF id, then a present Path). */
export function hasFileSplitShape(payload: ByteReader, version: number): boolean {
  if (version !== 1) return false;
  const start = payload.position;
  try {
    readFileSourceSplit(payload, 1);
    return true;
  } catch {
    return false;
  } finally {
    payload.seek(start);
  }
}

/** FileSourceSplitSerializer version 1 (its only version, Flink 1.11 to 2.x). */
export function readFileSourceSplit(r: ByteReader, version: number): Omit<FileSourceSplitView, 'subtask'> {
  if (version !== 1) throw r.error('unsupported-version', `expected FileSourceSplitSerializer version 1, found version ${version}`);
  const splitId = r.readUtf('split id');
  const path = readFlinkPath(r, 'the split path');
  const offset = r.readI64('split offset').toString();
  const length = r.readI64('split length').toString();
  const fileModificationTime = r.readI64('file modification time').toString();
  const fileSize = r.readI64('file size').toString();
  const hostCount = r.readCount('hosts', 2);
  const hostnames: string[] = [];
  for (let i = 0; i < hostCount; i++) hostnames.push(r.readUtf(`host #${i}`));
  const position = r.readBool('presence of the reader position')
    ? { offset: r.readI64('checkpointed offset').toString(), recordsAfterOffset: r.readI64('records after the checkpointed offset').toString() }
    : null;
  expectEnd(r, `the file split ${splitId}`);
  return { splitId, path, offset, length, fileModificationTime, fileSize, hostnames, position };
}

/** PendingSplitsCheckpointSerializer version 1: the enumerator's splits not yet assigned and the paths it has seen. */
export function readPendingSplitsCheckpoint(
  r: ByteReader,
  version: number,
): { splitSerializerVersion: number; pendingSplits: Omit<FileSourceSplitView, 'subtask'>[]; alreadyProcessedPaths: string[] } {
  if (version !== 1) throw r.error('unsupported-version', `expected PendingSplitsCheckpointSerializer version 1, found version ${version}`);
  readMagic(r, PENDING_SPLITS_MAGIC, 'the pending splits checkpoint', true);
  const splitSerializerVersion = readI32LE(r, 'split serializer version');
  const countAt = r.position;
  const splitCount = readI32LE(r, 'number of pending splits');
  const pathCount = readI32LE(r, 'number of processed paths');
  r.checkCount(splitCount, 'pending splits', 4, Number.MAX_SAFE_INTEGER, countAt);
  r.checkCount(pathCount, 'processed paths', 4, Number.MAX_SAFE_INTEGER, countAt + 4);
  const pendingSplits: Omit<FileSourceSplitView, 'subtask'>[] = [];
  for (let i = 0; i < splitCount; i++) {
    const split = r.subReader(readLength(r, `pending split #${i}`, true), `pending split #${i}`);
    pendingSplits.push(readFileSourceSplit(split, splitSerializerVersion));
  }
  const alreadyProcessedPaths: string[] = [];
  for (let i = 0; i < pathCount; i++) alreadyProcessedPaths.push(readUtf8(r, readLength(r, `processed path #${i}`, true), `processed path #${i}`));
  expectEnd(r, 'the pending splits checkpoint');
  return { splitSerializerVersion, pendingSplits, alreadyProcessedPaths };
}

/** The file system's recoverable inside the part-file recoverables: the local file system's is decoded; another's is named. */
function readFsRecoverable(r: ByteReader, what: string): Pick<FileRecoverableView, 'recoverable'> {
  const env = readVersionedEnvelope(r.subReader(8 + peekLength(r, what), what), what);
  const p = env.payload;
  if (env.version !== 1 || p.remaining < 4 || p.peekU8(0) !== 0x57 || p.peekU8(1) !== 0x4b || p.peekU8(2) !== 0x74 || p.peekU8(3) !== 0x1e) {
    return { recoverable: { kind: 'other-file-system', serializerVersion: env.version, bytes: p.remaining } };
  }
  readMagic(p, LOCAL_RECOVERABLE_MAGIC, 'the local file recoverable', true);
  const offset = readI64LE(p, 'offset of the local file recoverable').toString();
  const targetLength = readLength(p, 'target file', true);
  const tempLength = readI32LE(p, 'length of temp file');
  if (tempLength < 0 || targetLength + tempLength !== p.remaining) {
    throw p.error(
      'invalid-value',
      `expected the target and temp file names to fill the ${p.remaining} bytes left, found lengths ${targetLength} and ${tempLength}`,
    );
  }
  const targetFile = readUtf8(p, targetLength, 'target file');
  const tempFile = readUtf8(p, tempLength, 'temp file');
  return { recoverable: { kind: 'local', offset, targetFile, tempFile } };
}

/** The int32 length after a versioned envelope's version (to cut the envelope out of a longer layout). */
function peekLength(r: ByteReader, what: string): number {
  r.require(8, `${what}'s serializer version and length`);
  const at = r.position + 4;
  const n = (r.peekU8(4)! << 24) | (r.peekU8(5)! << 16) | (r.peekU8(6)! << 8) | r.peekU8(7)! | 0;
  if (n < 0 || n > r.remaining - 8)
    throw r.error('invalid-value', `expected a length of ${what} between 0 and the ${r.remaining - 8} bytes left, found ${n}`, at);
  return n;
}

/** An in-progress (resume) or pending (commit) part-file recoverable of the row/bulk part-file writers (version 2). */
function readPartFileRecoverable(r: ByteReader, kind: 'in-progress' | 'pending', what: string): FileRecoverableView {
  const env = readVersionedEnvelope(r.subReader(8 + peekLength(r, what), what), what);
  const p = env.payload;
  const name = kind === 'pending' ? 'OutputStreamBasedPendingFileRecoverableSerializer' : 'OutputStreamBasedInProgressFileRecoverableSerializer';
  if (env.version !== 2) throw p.error('unsupported-version', `expected ${name} version 2, found version ${env.version}`);
  readMagic(p, kind === 'pending' ? PENDING_FILE_MAGIC : IN_PROGRESS_MAGIC, `the ${kind} file recoverable`);
  const path = p.readBool(`presence of the ${kind} file path`) ? p.readUtf(`${kind} file path`) : null;
  const size = kind === 'pending' ? p.readI64('size of the pending file').toString() : null;
  const fs = readFsRecoverable(p, `the file system's ${kind === 'pending' ? 'commit' : 'resume'} recoverable`);
  expectEnd(p, `the ${kind} file recoverable`);
  return { path, size, ...fs };
}

/** FileWriterBucketStateSerializer version 3 (Flink 1.15+; versions 1 and 2, with pending files per checkpoint, are not decoded). */
export function readFileWriterBucketState(
  r: ByteReader,
  version: number,
): { bucketId: string; bucketPath: string; inProgressFileCreationTime: string; inProgressFile: FileRecoverableView | null } {
  if (version !== 3) {
    throw r.error(
      'unsupported-version',
      `expected FileWriterBucketStateSerializer version 3, found version ${version}${version === 1 || version === 2 ? ' (the FileSink writer state of Flink ≤ 1.14, with pending files per checkpoint: not decoded)' : ''}`,
    );
  }
  readMagic(r, BUCKET_STATE_MAGIC, 'the bucket state');
  const idEnv = readVersionedEnvelope(r.subReader(8 + peekLength(r, 'bucket id'), 'bucket id'), 'bucket id');
  if (idEnv.version !== 1)
    throw idEnv.payload.error('unsupported-version', `expected SimpleVersionedStringSerializer version 1 for the bucket id, found version ${idEnv.version}`);
  const bucketId = readUtf8(idEnv.payload, readLength(idEnv.payload, 'bucket id', true), 'bucket id');
  expectEnd(idEnv.payload, 'the bucket id');
  const bucketPath = r.readUtf('bucket path');
  const inProgressFileCreationTime = r.readI64('in-progress file creation time').toString();
  const inProgressFile = r.readBool('presence of the in-progress file') ? readPartFileRecoverable(r, 'in-progress', 'in-progress file recoverable') : null;
  expectEnd(r, `the bucket state of ${bucketId}`);
  return { bucketId, bucketPath, inProgressFileCreationTime, inProgressFile };
}

/** Whether a committable starts with FileSinkCommittable's magic number (versions 1 and 2). */
export function hasFileCommittableShape(payload: ByteReader, version: number): boolean {
  if ((version !== 1 && version !== 2) || payload.remaining < 4) return false;
  const start = payload.position;
  const magic = payload.readI32();
  payload.seek(start);
  return magic === FILE_COMMITTABLE_MAGIC;
}

/** FileSinkCommittableSerializer version 2 (Flink 1.15+; version 1, without the bucket id, is not decoded). */
export function readFileSinkCommittable(
  r: ByteReader,
  version: number,
): { bucketId: string; pendingFile: FileRecoverableView | null; inProgressFileToCleanup: FileRecoverableView | null; compactedFileToCleanup: string | null } {
  if (version !== 2) {
    throw r.error(
      'unsupported-version',
      `expected FileSinkCommittableSerializer version 2, found version ${version}${version === 1 ? ' (the FileSink committable of Flink ≤ 1.14, without a bucket id: not decoded)' : ''}`,
    );
  }
  readMagic(r, FILE_COMMITTABLE_MAGIC, 'the file sink committable');
  const bucketId = r.readUtf('bucket id of the committable');
  const pendingFile = r.readBool('presence of the pending file') ? readPartFileRecoverable(r, 'pending', 'pending file recoverable') : null;
  const inProgressFileToCleanup = r.readBool('presence of the in-progress file to clean up')
    ? readPartFileRecoverable(r, 'in-progress', 'in-progress file to clean up')
    : null;
  const compactedFileToCleanup = r.readBool('presence of the compacted file to clean up') ? r.readUtf('compacted file to clean up') : null;
  expectEnd(r, `the file sink committable of bucket ${bucketId}`);
  return { bucketId, pendingFile, inProgressFileToCleanup, compactedFileToCleanup };
}
