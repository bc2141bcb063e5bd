import type { ProtobufSettings } from '../../protobuf';
import type { SerializerSettings } from '../types';

/**
 * The reader settings a Protobuf serializer snapshot recorded, as the evaluator's saved side takes
 * them (no largePayloadAliasing: the snapshot does not record it).
 */
export function readSavedSettings(settings: ProtobufSettings): SerializerSettings {
  return { deterministicSerialization: settings.deterministic, maxMessageSize: settings.maxMessageSize, recursionLimit: settings.recursionLimit };
}
