/**
 * Reads `_metadata` and the state headers with the Protobuf serializer's snapshot readers and
 * returns the Protobuf states and the others (findProtobufStates): what `check` evaluates and
 * `export-schema` lists.
 */
import { createSnapshotRegistry, inspectSavepoint, type CancelSignal } from '../flink';
import type { SavepointFiles } from '../io';
import { registerProtobufSnapshotReaders } from '../protobuf';
import { findProtobufStates, type FoundOtherState, type FoundProtobufState } from './find-protobuf-states';

export async function inspectProtobufStates(files: SavepointFiles, options: { signal?: CancelSignal } = {}): Promise<{ protobuf: FoundProtobufState[]; other: FoundOtherState[] }> {
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  return findProtobufStates(await inspectSavepoint(files, registry, options.signal ? { signal: options.signal } : {}));
}
