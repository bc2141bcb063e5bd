import { isDecodeError, type ByteReader, type DecodeError } from '../../io';
import type { KeyedStateHeader, StateMetaInfo } from '../savepoint/inspection-types';
import { createUnknownTopLevelSnapshot, describeUnknownSerializer, readSerializerSnapshot } from '../snapshots/read-serializer-snapshot';
import { readStateMetaInfoSections, resyncToFence } from './read-state-meta-info-sections';
import { inferUnknownTopLevelSnapshot } from '../snapshots/infer-unknown-snapshot';
import type { SnapshotRegistry } from '../snapshots/snapshot-types';
import type { SerializerSnapshot } from '../snapshots/snapshot-types';

export const KEYED_BACKEND_PROXY_VERSION = 6;

export interface ReadKeyedStateHeaderOptions {
  /**
   * absolute offset where the header must end: the smallest non-zero key-group offset, or the
   * stream size when every offset is 0. Enables recovery past unknown snapshots.
   */
  fence?: number;
}

export interface KeyedStateHeaderResult extends KeyedStateHeader {
  /** unknown snapshots skipped by resynchronising on the fence, and fence mismatches */
  warnings: string[];
}

/**
 * Reads a KeyedBackendSerializationProxy header: `i32` version 6, `bool` compression,
 * key serializer snapshot, `i16` n, n state meta infos. The same format is the content of the
 * RocksDB native "meta data" handle.
 */
export function readKeyedStateHeader(r: ByteReader, registry: SnapshotRegistry, options: ReadKeyedStateHeaderOptions = {}): KeyedStateHeaderResult {
  const at = r.position;
  const version = r.readI32('keyed backend header version');
  if (version !== KEYED_BACKEND_PROXY_VERSION) {
    const hint = version >= 1 && version <= 5 ? ' (written by Flink before 1.8; not restorable by Flink ≥ 1.17 either)' : '';
    throw r.error('unsupported-version', `expected keyed backend header version 6, found ${version}${hint}`, at);
  }
  const compressed = r.readBool('key-group compression flag');
  const fence = options.fence;
  const warnings: string[] = [];
  const keyAt = r.position;
  let keySerializer: SerializerSnapshot;
  try {
    keySerializer = readSerializerSnapshot(r, registry);
  } catch (e) {
    const unknown = isDecodeError(e) ? describeUnknownSerializer(e) : undefined;
    if (!unknown || fence === undefined) throw e;
    keySerializer = createUnknownTopLevelSnapshot(r, keyAt, e as DecodeError, unknown);
    let resumedAt = -1;
    const rest = resyncToFence(r, keyAt + 12, fence, () => {
      resumedAt = r.position;
      return readStateMetaInfoSections(r, registry, 1, fence);
    });
    if (rest === undefined) throw e;
    const headerEnd = r.position;
    // the resynchronisation bounded the unknown snapshot: an inferrer may recognise its bytes now
    const inferred = inferUnknownTopLevelSnapshot(r, registry, keyAt, resumedAt, unknown.className);
    r.seek(headerEnd);
    if (inferred !== undefined) keySerializer = inferred;
    const how =
      inferred !== undefined
        ? "read by structure (inferred, not exact: see the snapshot's inferred details)"
        : 'skipped by resynchronising on the key-group fence';
    warnings.push(`key serializer: ${unknown.className} v${unknown.version} is an unknown serializer snapshot, ${how}`, ...rest.warnings);
    return { version, compressed, keySerializer, states: rest.sections[0] ?? [], end: r.absolutePosition, warnings };
  }
  const result = readStateMetaInfoSections(r, registry, 1, fence);
  const states: StateMetaInfo[] = result.sections[0] ?? [];
  warnings.push(...result.warnings);
  if (fence !== undefined && r.absolutePosition !== fence) {
    warnings.push(`keyed header ends at offset ${r.absolutePosition}, but the first key-group block starts at ${fence}`);
  }
  return { version, compressed, keySerializer, states, end: r.absolutePosition, warnings };
}
