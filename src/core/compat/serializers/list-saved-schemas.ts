/**
 * The saved Protobuf schemas of a savepoint: for every Protobuf state (and serializer role), the
 * descriptor set its snapshot embeds, byte for byte, with the root message and Java class — read
 * from `_metadata` and the state headers only. What `export-schema` writes, so that a pull
 * request's CI can `compare` a new schema against what production state was saved with, without
 * the savepoint.
 */
import type { CancelSignal } from '../../flink';
import type { SavepointFiles } from '../../io';
import { inspectProtobufStates } from './inspect-protobuf-states';
import { readSavedSettings } from './read-saved-settings';
import type { SerializerSettings } from '../types';

export interface SavedSchema {
  operatorId: string;
  operatorUid?: string;
  state: string;
  /** which serializer holds the Protobuf type (VALUE_SERIALIZER, KEY_SERIALIZER, …; `/<i>` inside composites) */
  role: string;
  rootFullName: string;
  javaClass: string;
  snapshotClass: string;
  /** the reader settings the snapshot recorded (a descriptor set does not carry them: `compare` assumes the defaults) */
  settings: SerializerSettings;
  /** the FileDescriptorSet as the snapshot embeds it */
  descriptorBytes: Uint8Array;
  /** lower-case hex SHA-256 of descriptorBytes */
  descriptorSha256: string;
}

export async function listSavedSchemas(files: SavepointFiles, options: { signal?: CancelSignal } = {}): Promise<SavedSchema[]> {
  return (await inspectProtobufStates(files, options)).protobuf.map(({ operator, state, role, snapshot, content }) => ({
    operatorId: operator.id,
    ...(operator.uid ? { operatorUid: operator.uid } : {}),
    state: state.name,
    role,
    rootFullName: content.rootFullName,
    javaClass: content.javaClass,
    snapshotClass: snapshot.className,
    settings: readSavedSettings(content.settings),
    descriptorBytes: content.descriptorBytes,
    descriptorSha256: content.descriptorSha256,
  }));
}
