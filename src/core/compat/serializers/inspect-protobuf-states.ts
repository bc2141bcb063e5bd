/**
 * Reads `_metadata` and the state headers with the Protobuf serializer's snapshot readers and
 * returns the Protobuf states and the others (findProtobufStates): what `check` evaluates and
 * `export-schema` lists.
 */
import { createSavepointSession, openSavepointSession, type CancelSignal, type OpenedSavepoint, type SavepointInspection } from '../../flink';
import type { SavepointFiles } from '../../io';
import { createSavepointRegistry } from './create-savepoint-registry';
import {
  findProtobufStates,
  type FoundKryoProtobufState,
  type FoundOtherState,
  type FoundPeerSerdeState,
  type FoundProtobufState,
} from './find-protobuf-states';
import type { KryoProtobufSchema } from './register-kryo-protobuf-readers';

/** `input`: the savepoint, opened or not (inspectSavepoint); `kryoSchema`: the user's descriptor set, for Protobuf held by Kryo (its snapshot embeds no schema). */
export async function inspectProtobufStates(
  input: SavepointFiles | OpenedSavepoint,
  options: { signal?: CancelSignal; kryoSchema?: KryoProtobufSchema } = {},
): Promise<{
  protobuf: FoundProtobufState[];
  kryo: FoundKryoProtobufState[];
  peer: FoundPeerSerdeState[];
  other: FoundOtherState[];
  inspection: SavepointInspection;
}> {
  const registry = createSavepointRegistry({ schema: options.kryoSchema });
  // a savepoint given by its files is opened here, once, as a session (the commands that list states: migration-job, migration-plan, export-schema)
  const session = 'resolveStreamHandle' in input ? createSavepointSession(input, registry) : await openSavepointSession(input, registry);
  const inspection = await session.inspect(options.signal ? { signal: options.signal } : {});
  return { ...findProtobufStates(inspection), inspection };
}
