/**
 * What the Overview says about a savepoint as a whole before any verdict: the state files its `_metadata`
 * names that were not given (one sentence, not one line per reference), and whether it holds any Protobuf
 * state at all (and if not, what it holds).
 */
import type { SavepointInspection, SerializerSnapshot } from '../core/flink';

type InspectionError = SavepointInspection['errors'][number];

/** The distinct state files the inspection found missing (code `missing-file`), in first-seen order. */
export function listMissingStateFiles(inspection: SavepointInspection): string[] {
  const files = new Set<string>();
  for (const e of inspection.errors) if (e.code === 'missing-file' && (e.missingFile ?? e.file)) files.add((e.missingFile ?? e.file)!);
  // and those no read reached (a RocksDB snapshot stops at its first missing SST file; the others are missing too)
  for (const f of inspection.missingFiles ?? []) files.add(f);
  return [...files];
}

/** The errors and warnings left once the missing files are told in one sentence. */
export function omitMissingFileNotes(inspection: SavepointInspection, missing: readonly string[]): { errors: InspectionError[]; warnings: string[] } {
  const quoted = missing.map((f) => `"${f}"`);
  return {
    errors: inspection.errors.filter((e) => e.code !== 'missing-file'),
    warnings: inspection.warnings.filter((w) => !(w.includes('found no such file') && quoted.some((q) => w.includes(q)))),
  };
}

export interface SavepointContents {
  /** states with a Protobuf serializer snapshot (one that embeds a descriptor set), or Protobuf held by Kryo or flink-protobuf-serde, anywhere in their serializers */
  protobufStates: number;
  /** states whose headers could not be read: no claim can be made about them */
  unreadableStates: number;
  /** the other states by type, most frequent first: `Timer<String, VoidNamespace>` × 4 */
  others: { type: string; count: number }[];
}

export function describeSavepointContents(inspection: SavepointInspection): SavepointContents {
  let protobufStates = 0;
  let unreadableStates = 0;
  const others = new Map<string, number>();
  for (const op of inspection.operators) {
    for (const s of op.states) {
      if (s.status === 'unreadable') unreadableStates++;
      else if ([s.keySerializer, s.namespaceSerializer, s.valueSerializer].some(holdsProtobuf)) protobufStates++;
      else {
        const type = s.valueSerializer?.typeLabel ?? s.kind;
        others.set(type, (others.get(type) ?? 0) + 1);
      }
    }
    unreadableStates += op.streamsNotRead.length;
  }
  return {
    protobufStates,
    unreadableStates,
    others: [...others].map(([type, count]) => ({ type, count })).sort((a, b) => b.count - a.count || (a.type < b.type ? -1 : 1)),
  };
}

function holdsProtobuf(s: SerializerSnapshot | undefined, depth = 0): boolean {
  if (s === undefined || depth > 32) return false;
  if (typeof s.details?.['descriptorSha256'] === 'string') return true;
  // Protobuf held by Kryo (chill-protobuf) or written by flink-protobuf-serde: Protobuf state too, with a verdict of its own
  if (s.details?.['protobuf'] !== undefined || s.details?.['peerSerde'] !== undefined) return true;
  return s.nested.some((n) => holdsProtobuf(n, depth + 1));
}
