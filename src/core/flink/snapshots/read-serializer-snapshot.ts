import { ByteReader, DecodeError, isDecodeError } from '../../io';
import type { SerializerSnapshot, SnapshotReadContext } from './snapshot-types';
import type { SnapshotRegistry } from './snapshot-types';

/** Nesting limit for snapshots inside snapshots (composite, POJO fields, …). */
export const MAX_SNAPSHOT_DEPTH = 64;

/** The proxy version written by TypeSerializerSnapshotSerializationUtil. */
export const SNAPSHOT_PROXY_VERSION = 2;

/**
 * Reads a top-level (proxied) serializer snapshot: `i32` proxy version (2), then the nested form
 * (`readNestedSerializerSnapshot`). An unknown class throws a DecodeError with code `unknown-serializer`
 * (its extent cannot be known: snapshots have no length prefix); see `describeUnknownSerializer`.
 */
export function readSerializerSnapshot(r: ByteReader, registry: SnapshotRegistry): SerializerSnapshot {
  const at = r.position;
  const proxyVersion = r.readI32('serializer snapshot proxy version');
  if (proxyVersion === 1) {
    throw r.error(
      'unsupported-version',
      'expected serializer snapshot proxy version 2, found 1 (a legacy TypeSerializerConfigSnapshot, written before Flink 1.8-era snapshots; Flink ≥ 1.17 cannot restore it either)',
      at,
    );
  }
  if (proxyVersion !== SNAPSHOT_PROXY_VERSION) {
    throw r.error('unsupported-version', `expected serializer snapshot proxy version 2, found ${proxyVersion}`, at);
  }
  return readNestedSerializerSnapshot(r, registry, 0);
}

/**
 * Reads a nested (versioned) serializer snapshot: `utf` class name, `i32` version,
 * class-specific content read by the registered SnapshotReader.
 */
export function readNestedSerializerSnapshot(r: ByteReader, registry: SnapshotRegistry, depth = 0): SerializerSnapshot {
  const start = r.position;
  if (depth > MAX_SNAPSHOT_DEPTH) {
    throw r.error('limit-exceeded', `expected serializer snapshots nested at most ${MAX_SNAPSHOT_DEPTH} deep, found deeper nesting`, start);
  }
  const className = r.readUtf('serializer snapshot class name');
  const version = r.readI32(`version of ${className}`);
  const reader = registry.lookup(className);
  if (reader === undefined) {
    throw r.error('unknown-serializer', `unknown serializer snapshot ${className} v${version}`, start, {
      found: `${className} v${version}`,
    });
  }
  const ctx: SnapshotReadContext = {
    depth,
    readNested: (inner) => readNestedSerializerSnapshot(inner, registry, depth + 1),
  };
  let snapshot: SerializerSnapshot;
  try {
    snapshot = reader.read(r, version, className, ctx);
  } catch (e) {
    if (isDecodeError(e) && e.code !== 'unknown-serializer') {
      throw e.withContext({ pathPrefix: [`snapshot ${shortClassName(className)}`] });
    }
    throw e;
  }
  return {
    ...snapshot,
    range: { offset: r.baseOffset + start, length: r.position - start },
    ...(r.file === undefined ? {} : { file: r.file }),
  };
}

/** For an `unknown-serializer` DecodeError: the class name and version it names. */
export function describeUnknownSerializer(e: DecodeError): { className: string; version: number } | undefined {
  if (e.code !== 'unknown-serializer' || e.found === undefined) return undefined;
  const m = /^(.*) v(-?\d+)$/.exec(e.found);
  return m ? { className: m[1]!, version: Number(m[2]) } : undefined;
}

/** A placeholder-free record of an unknown snapshot class, for headers that recovered past it. */
export function createUnknownSnapshot(className: string, version: number): SerializerSnapshot {
  return { className, version, typeLabel: `unknown ${shortClassName(className)}`, status: 'unknown', nested: [], fixedLength: -1 };
}

/**
 * The record of a top-level snapshot starting at `at` (its proxy version) whose reading failed on the
 * unknown class of `error` (describeUnknownSerializer): that class itself when it is the top-level one;
 * else the top-level class as the header names it (e.g. a TimerSerializerSnapshot), status unknown, with
 * the unknown class as its one nested snapshot. Leaves the reader's position where it was.
 */
export function createUnknownTopLevelSnapshot(
  r: ByteReader,
  at: number,
  error: DecodeError,
  unknown: { className: string; version: number },
): SerializerSnapshot {
  const inner = createUnknownSnapshot(unknown.className, unknown.version);
  if (error.offset === r.baseOffset + at + 4) return inner;
  const saved = r.position;
  try {
    r.seek(at + 4);
    const className = r.readUtf('serializer snapshot class name');
    const version = r.readI32(`version of ${className}`);
    return {
      className,
      version,
      typeLabel: `${shortClassName(className)} of unknown ${shortClassName(unknown.className)}`,
      status: 'unknown',
      nested: [inner],
      fixedLength: -1,
    };
  } catch (e) {
    if (!isDecodeError(e)) throw e;
    return inner;
  } finally {
    r.seek(saved);
  }
}

/** `a.b.LongSerializer$LongSerializerSnapshot` → `LongSerializer$LongSerializerSnapshot` */
export function shortClassName(className: string): string {
  const i = className.lastIndexOf('.');
  return i < 0 ? className : className.slice(i + 1);
}
