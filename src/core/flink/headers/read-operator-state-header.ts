import { SNAPPY_STREAM_IDENTIFIER, type ByteReader } from '../../io';
import type { OperatorStateHeader } from '../savepoint/inspection-types';
import { isAtFence, readStateMetaInfoSections } from './read-state-meta-info-sections';
import type { SnapshotRegistry } from '../snapshots/snapshot-types';

export interface OperatorStateHeaderResult extends OperatorStateHeader {
  warnings: string[];
}

/**
 * Reads an OperatorBackendSerializationProxy header: `i32` version (5 or 6; the
 * compression `bool` exists only in 6), `i16` n + n operator state meta infos, `i16` b + b
 * broadcast state meta infos. `fence` = smallest offset of the handle (enables recovery past
 * unknown snapshots).
 */
export function readOperatorStateHeader(r: ByteReader, registry: SnapshotRegistry, options: { fence?: number } = {}): OperatorStateHeaderResult {
  const at = r.position;
  const version = r.readI32('operator backend header version');
  if (version !== 5 && version !== 6) {
    throw r.error('unsupported-version', `expected operator backend header version 5 or 6, found ${version}`, at);
  }
  const compressed = version >= 6 ? r.readBool('operator state compression flag') : false;
  // compressed: the Snappy stream identifier chunk (10 bytes) sits between the header and the first offset
  const fence = options.fence === undefined ? undefined : compressed ? [options.fence, options.fence - SNAPPY_STREAM_IDENTIFIER.length] : options.fence;
  const { sections, warnings } = readStateMetaInfoSections(r, registry, 2, fence);
  if (fence !== undefined && !isAtFence(r, fence)) {
    warnings.push(`operator state header ends at offset ${r.absolutePosition}, but the first state starts at ${options.fence}`);
  }
  return { version, compressed, states: sections[0] ?? [], broadcastStates: sections[1] ?? [], end: r.absolutePosition, warnings };
}
