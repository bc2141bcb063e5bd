import type { SnapshotReader } from './snapshot-types';
import { simpleSnapshotReader } from './simple-snapshots';
import { arrayListSnapshotReader, genericArraySnapshotReader, listSnapshotReader, mapSnapshotReader, setSnapshotReader } from './collection-snapshots';
import { eitherSnapshotReader, nullableSnapshotReader, rowSnapshotReader, timerSnapshotReader, ttlSnapshotReader } from './wrapper-snapshots';
import { tupleSnapshotReader } from './tuple-snapshot';
import { pojoSnapshotReader } from './pojo-snapshot';
import { genericTypeSnapshotReader } from './opaque-type-snapshots';
import { kryoSnapshotReader } from './kryo-snapshot';
import { enumSnapshotReader } from './enum-snapshot';
import { avroSnapshotReader } from './avro-snapshot';
import { TABLE_SNAPSHOT_READERS } from './table/table-snapshots';
import { CEP_SNAPSHOT_READERS } from './cep-snapshots';

export { SIMPLE_TYPES } from './simple-snapshots';
export { COMPOSITE_MAGIC, NESTED_DELEGATE_MAGIC } from './read-composite-snapshot';
export { LINKED_OPTIONAL_MAP_HEADER } from './read-linked-optional-map';

export const BUILTIN_SNAPSHOT_READERS: readonly SnapshotReader[] = [
  simpleSnapshotReader,
  listSnapshotReader,
  arrayListSnapshotReader,
  setSnapshotReader,
  mapSnapshotReader,
  genericArraySnapshotReader,
  ttlSnapshotReader,
  timerSnapshotReader,
  nullableSnapshotReader,
  eitherSnapshotReader,
  rowSnapshotReader,
  tupleSnapshotReader,
  pojoSnapshotReader,
  kryoSnapshotReader,
  genericTypeSnapshotReader,
  enumSnapshotReader,
  avroSnapshotReader,
  ...TABLE_SNAPSHOT_READERS,
  ...CEP_SNAPSHOT_READERS,
];

export function registerBuiltinSnapshotReaders(registry: { register(reader: SnapshotReader): void }): void {
  for (const reader of BUILTIN_SNAPSHOT_READERS) registry.register(reader);
}
