/** The content of a ProtobufTypeSerializerSnapshot version 1. */
import type { ProtobufSettings } from './protobuf-constants';
import type { NormalizedDescriptorSet } from './normalize-descriptor-set';

export interface ProtobufSnapshotContent {
  /** Java binary class name of the generated message, e.g. `…RuntimeMessages$Entry` */
  javaClass: string;
  /** Protobuf full name of the root message (no leading dot) */
  rootFullName: string;
  settings: ProtobufSettings;
  /** the saved descriptor bytes exactly as stored */
  descriptorBytes: Uint8Array;
  /** lower-case hex SHA-256 of `descriptorBytes` (checked against the stored digest) */
  descriptorSha256: string;
  /** the validated, normalized schema with built descriptors */
  schema: NormalizedDescriptorSet;
}
