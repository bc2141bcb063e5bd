/**
 * What inspect output shows for a Protobuf serializer: java class, root full name, settings and
 * descriptor files, found in a state's serializer snapshot directly or nested inside composite
 * snapshots (Map/List/TTL, …).
 */
import type { SerializerSnapshot } from '../flink';
import type { ProtobufSettings } from './protobuf-constants';
import { getProtobufSnapshotContent } from './register-protobuf-snapshot-readers';

export interface ProtobufSnapshotSummary {
  javaClass: string;
  rootFullName: string;
  settings: ProtobufSettings;
  descriptorFiles: string[];
  descriptorSha256: string;
}

/** Every Protobuf snapshot inside `snapshot` (depth-first, itself first). */
export function describeProtobufSnapshots(snapshot: SerializerSnapshot | undefined, depth = 0): ProtobufSnapshotSummary[] {
  if (snapshot === undefined || depth > 64) return [];
  const content = getProtobufSnapshotContent(snapshot);
  const own: ProtobufSnapshotSummary[] = content
    ? [
        {
          javaClass: content.javaClass,
          rootFullName: content.rootFullName,
          settings: { ...content.settings },
          descriptorFiles: [...content.schema.fileNames],
          descriptorSha256: content.descriptorSha256,
        },
      ]
    : [];
  return [...own, ...snapshot.nested.flatMap((n) => describeProtobufSnapshots(n, depth + 1))];
}

/** `protobuf: java class …, root …, settings deterministic=false maxMessageSize=67108864 recursionLimit=100, descriptor files a.proto, b.proto` */
export function formatProtobufSnapshotSummary(s: ProtobufSnapshotSummary): string {
  return (
    `protobuf: java class ${s.javaClass}, root ${s.rootFullName}, settings deterministic=${s.settings.deterministic} ` +
    `maxMessageSize=${s.settings.maxMessageSize} recursionLimit=${s.settings.recursionLimit}, descriptor files ${s.descriptorFiles.join(', ')}`
  );
}
