/**
 * What an export reads off a state's values: the Protobuf snapshot its rows' values are read with (the
 * Arrow wire path and the Parquet schema take it), and the parts of a row its serializers could not decode
 * (counted into the export's failures).
 */
import type { DecodedValue, InspectedState, SerializerSnapshot } from '../flink';
import { getProtobufSnapshotContent, type ProtobufSnapshotContent } from '../protobuf';
import type { ExportRow } from './export-types';

/** The row's key, namespace, user key and value parts (list elements, map entries, fields) that their serializer could not decode. */
export function countUndecodable(row: ExportRow): number {
  let n = 0;
  const walk = (v: DecodedValue | null | undefined): void => {
    if (v === null || v === undefined) return;
    switch (v.kind) {
      case 'opaque':
        if (v.decodeFailed === true) n++;
        return;
      case 'list':
        v.items.forEach(walk);
        return;
      case 'map':
        for (const e of v.entries) {
          walk(e.key);
          walk(e.value);
        }
        return;
      case 'tuple':
        v.fields.forEach(walk);
        return;
      case 'pojo':
      case 'row':
        for (const f of v.fields) walk(f.value);
        return;
      case 'ttl':
        walk(v.value);
        return;
      default:
        return;
    }
  };
  walk(row.key);
  walk(row.namespace);
  walk(row.userKey);
  walk(row.value);
  return n;
}

/**
 * The Protobuf snapshot of the state's row values: the value serializer itself, a list state's
 * element serializer, a map state's value serializer, or the one Protobuf serializer inside a wrapper
 * (TTL); undefined when there is none or more than one (the value is then exported as JSON text).
 */
export function findValueProtobufContent(state: InspectedState): ProtobufSnapshotContent | undefined {
  const s = state.valueSerializer;
  if (s === undefined) return undefined;
  // a map (MapState, broadcast state as a map) holds its key serializer first: not the rows' values
  const start = getProtobufSnapshotContent(s) === undefined && (state.kind === 'MAP' || state.scope === 'broadcast') ? s.nested.slice(1) : [s];
  const found: ProtobufSnapshotContent[] = [];
  const walk = (x: SerializerSnapshot) => {
    const c = getProtobufSnapshotContent(x);
    if (c !== undefined) found.push(c);
    else x.nested.forEach(walk);
  };
  start.forEach(walk);
  return found.length === 1 ? found[0] : undefined;
}
