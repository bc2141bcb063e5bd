/**
 * What inspect output shows for a Protobuf serializer: java class, root full name, settings and
 * descriptor files, found in a state's serializer snapshot directly or nested inside composite
 * snapshots (Map/List/TTL, …).
 */
import { getInferredSnapshotNote, type InferredSnapshotNote, type SerializerSnapshot } from '../flink';
import type { ProtobufSettings } from './protobuf-constants';
import { getProtobufSnapshotContent } from './register-protobuf-snapshot-readers';

export interface ProtobufSnapshotSummary {
  javaClass: string;
  rootFullName: string;
  settings: ProtobufSettings;
  descriptorFiles: string[];
  descriptorSha256: string;
  /** read by structure from a snapshot class no reader knows: what was read where, what not (settings among it) */
  inferred?: InferredSnapshotNote;
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
          ...(getInferredSnapshotNote(snapshot) ? { inferred: getInferredSnapshotNote(snapshot)! } : {}),
        },
      ]
    : [];
  return [...own, ...snapshot.nested.flatMap((n) => describeProtobufSnapshots(n, depth + 1))];
}

/** `protobuf: java class …, root …, settings deterministic=false maxMessageSize=67108864 recursionLimit=100, descriptor files a.proto, b.proto` */
export function formatProtobufSnapshotSummary(s: ProtobufSnapshotSummary): string {
  if (s.inferred) {
    const read = s.inferred.read.map((r) => `${r.what} at offset ${r.offset} (+${r.length}${r.encoding ? `, ${r.encoding}` : ''})`).join('; ');
    return (
      `protobuf (INFERRED by ${s.inferred.by}; not exact): java class ${s.javaClass}, root ${s.rootFullName}, descriptor files ${s.descriptorFiles.join(', ')}; ` +
      `read: ${read}; not read: ${s.inferred.notRead.join('; ')}`
    );
  }
  return (
    `protobuf: java class ${s.javaClass}, root ${s.rootFullName}, settings deterministic=${s.settings.deterministic} ` +
    `maxMessageSize=${s.settings.maxMessageSize} recursionLimit=${s.settings.recursionLimit}, descriptor files ${s.descriptorFiles.join(', ')}`
  );
}
