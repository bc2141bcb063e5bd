/**
 * A snapshot of a class no reader knows has no length prefix; resynchronising on the header fence finds where
 * the rest of the header starts (`end`), which bounds it. Given that bound, the registry's inferrers look at the
 * unknown snapshot's bytes; when one recognises them, the top-level snapshot at `at` (its proxy version) is read
 * again with the inferred snapshot in the unknown one's place and must end exactly at `end`. Bytes between the
 * recognised structure and that end are named as not read (`details.inferred.notRead`), never dropped silently.
 */
import { isDecodeError, type ByteReader } from '../../io';
import { readSerializerSnapshot } from './read-serializer-snapshot';
import type { InferredSnapshot, InferredSnapshotNote, SerializerSnapshot, SnapshotReader, SnapshotRegistry } from './snapshot-types';

/** Upper bound on candidate ends tried for an inferred snapshot nested in a composite one. */
const MAX_END_ATTEMPTS = 4096;

export function inferUnknownTopLevelSnapshot(
  r: ByteReader,
  registry: SnapshotRegistry,
  at: number,
  end: number,
  unknownClass: string,
): SerializerSnapshot | undefined {
  const inferrers = registry.listInferrers();
  if (inferrers.length === 0 || end <= at) return undefined;
  const saved = r.position;
  // one inference per content start: only the end chosen for it varies between attempts
  const inferred = new Map<number, InferredSnapshot | undefined>();
  let choose: (recognisedEnd: number) => number = () => end;
  const reader: SnapshotReader = {
    classNames: [unknownClass],
    read(inner, version, className) {
      const start = inner.position;
      if (!inferred.has(start)) {
        let found: InferredSnapshot | undefined;
        for (const inferrer of inferrers) {
          inner.seek(start);
          found = inferrer.infer(inner, className, version, end);
          if (found) break;
        }
        inferred.set(start, found);
      }
      const found = inferred.get(start);
      if (found === undefined) throw inner.error('unknown-serializer', `unknown serializer snapshot ${className} v${version}`, start);
      const stop = choose(found.end);
      if (stop < found.end || stop > end)
        throw inner.error('invalid-value', `expected the inferred snapshot to end between ${found.end} and ${end}, found ${stop}`, start);
      inner.seek(stop);
      return stop === found.end ? found.snapshot : withTrailingBytes(found.snapshot, inner.baseOffset + found.end, stop - found.end);
    },
  };
  const wrapped: SnapshotRegistry = {
    register: () => {},
    lookup: (className) => (className === unknownClass ? reader : registry.lookup(className)),
    listClassNames: () => registry.listClassNames(),
    registerInferrer: () => {},
    listInferrers: () => inferrers,
  };
  const attempt = (): SerializerSnapshot | undefined => {
    r.seek(at);
    try {
      const snapshot = readSerializerSnapshot(r, wrapped);
      return r.position === end ? snapshot : undefined;
    } catch (e) {
      if (!isDecodeError(e)) throw e;
      return undefined;
    }
  };
  try {
    // the unknown snapshot at top level, or last in a composite: it ends where the rest of the header starts
    const whole = attempt();
    if (whole !== undefined || [...inferred.values()].every((v) => v === undefined)) return whole;
    // nested before other bytes of its composite: the latest end from which the composite ends at `end`
    for (let delta = 1; delta <= MAX_END_ATTEMPTS; delta++) {
      let tooShort = false;
      choose = (recognisedEnd) => {
        const stop = end - delta;
        if (stop < recognisedEnd) tooShort = true;
        return stop;
      };
      const found = attempt();
      if (found !== undefined) return found;
      if (tooShort) return undefined;
    }
    return undefined;
  } finally {
    r.seek(saved);
  }
}

function withTrailingBytes(snapshot: SerializerSnapshot, offset: number, length: number): SerializerSnapshot {
  const note = snapshot.details?.['inferred'] as InferredSnapshotNote | undefined;
  const tail = `${length} byte${length === 1 ? '' : 's'} at offset ${offset} (after the recognised structure, before the header goes on) not read: their meaning is not known`;
  return {
    ...snapshot,
    details: {
      ...snapshot.details,
      inferred: { by: note?.by ?? 'structure', read: note?.read ?? [], notRead: [...(note?.notRead ?? []), tail] } satisfies InferredSnapshotNote,
    },
  };
}
