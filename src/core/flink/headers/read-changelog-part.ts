/**
 * The non-materialized part of a changelog keyed handle (code 8/14): the state changes recorded after
 * the materialized snapshot, in change handles of code 9 (in-memory, bytes inline in `_metadata`) or
 * 10/13 (change files). They are not applied here; this reads what is needed to say so and to list
 * every state they name: each in-memory change of key group -1 is a META record
 *
 *     u8 operation 8 (METADATA), i32 meta-info version, state meta info (as in the keyed header),
 *     then for key/value states bool TTL + bool default value (each with its bytes when true),
 *     i16 state id, u8 backend state type
 *
 * written before the first change of a state; the other changes (key group ≥ 0) are the data changes.
 * Change files are not opened: the states they alone name cannot be listed.
 */
import { ByteReader, isDecodeError, type DecodeError } from '../../io';
import type { KeyedStateHandle } from '../metadata/metadata-types';
import type { StateMetaInfo } from '../savepoint/inspection-types';
import type { OpenedSavepoint } from '../savepoint/open-savepoint';
import { createUnknownTopLevelSnapshot, describeUnknownSerializer, readSerializerSnapshot } from '../snapshots/read-serializer-snapshot';
import type { SerializerSnapshot, SnapshotRegistry } from '../snapshots/snapshot-types';
import { createStateMetaInfo, readStateMetaInfoPrefix } from './read-state-meta-info';

/** The operation code of a changelog META record. */
export const CHANGELOG_METADATA_OPERATION = 8;
/** The key group of changelog records that are not data changes (META records). */
export const CHANGELOG_META_KEY_GROUP = -1;

export interface ChangelogPart {
  /** data changes (in-memory changes of a key group) and change files, not applied here */
  dataChanges: number;
  changeFiles: number;
  /** the states the in-memory META records name, in record order (a state once) */
  states: StateMetaInfo[];
  warnings: string[];
}

export async function readChangelogPart(opened: OpenedSavepoint, handles: readonly KeyedStateHandle[], registry: SnapshotRegistry): Promise<ChangelogPart> {
  const part: ChangelogPart = { dataChanges: 0, changeFiles: 0, states: [], warnings: [] };
  const metadata = opened.files.metadata;
  for (const h of handles) {
    if (h.kind !== 'changelog') {
      part.warnings.push(`a ${h.kind} handle (code ${h.code}) among the changelog's non-materialized handles is not read`);
      continue;
    }
    part.changeFiles += h.files?.length ?? 0;
    for (const change of h.changes ?? []) {
      if (change.keyGroup !== CHANGELOG_META_KEY_GROUP) {
        part.dataChanges++;
        continue;
      }
      const bytes = await metadata.read(change.offset, change.length);
      const r = new ByteReader(bytes, { file: opened.metadataFile, baseOffset: change.offset });
      try {
        const meta = readMetaRecord(r, registry);
        if (meta && !part.states.some((s) => s.name === meta.name)) part.states.push(meta);
      } catch (e) {
        if (!isDecodeError(e)) throw e;
        part.warnings.push(`a changelog META record could not be read: ${e.message}`);
      }
    }
  }
  return part;
}

/** The state meta info of a META record (undefined for another operation); serializers after an unknown one are not read (the record has no fence to resynchronise on). */
function readMetaRecord(r: ByteReader, registry: SnapshotRegistry): StateMetaInfo | undefined {
  if (r.readU8('changelog operation') !== CHANGELOG_METADATA_OPERATION) return undefined;
  const versionAt = r.position;
  const version = r.readI32('state meta info version');
  if (version < 6 || version > 7) throw r.error('unsupported-version', `expected state meta info version 6 or 7 in a changelog META record, found ${version}`, versionAt);
  const prefix = readStateMetaInfoPrefix(r);
  const serializers: Record<string, SerializerSnapshot> = {};
  for (let j = 0; j < prefix.serializerCount; j++) {
    const key = r.readUtf(`serializer key of state ${prefix.name}`);
    const at = r.position;
    try {
      serializers[key] = readSerializerSnapshot(r, registry);
    } catch (e) {
      const unknown = isDecodeError(e) ? describeUnknownSerializer(e) : undefined;
      if (!unknown) throw e;
      serializers[key] = createUnknownTopLevelSnapshot(r, at, e as DecodeError, unknown);
      break;
    }
  }
  return createStateMetaInfo(prefix, serializers);
}
