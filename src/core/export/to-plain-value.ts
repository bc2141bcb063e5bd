/**
 * A decoded Flink value as plain JSON for JSON Lines and CSV: numbers and booleans as themselves,
 * Java longs as strings (no precision lost), strings, bytes as base64, Protobuf messages as their
 * ProtoJSON view, lists as arrays, maps as arrays of {key, value}, tuples as arrays, POJOs as objects,
 * Table rows as objects of their columns (with `rowKind`);
 * the rarer kinds keep their DecodedValue form (which names its kind).
 */
import type { DecodedValue } from '../flink';

export type PlainValue = null | boolean | number | string | PlainValue[] | { [key: string]: PlainValue } | DecodedValue;

export function toPlainValue(v: DecodedValue | null | undefined): PlainValue {
  if (v === null || v === undefined) return null;
  switch (v.kind) {
    case 'null':
      return null;
    case 'int':
    case 'float':
    case 'boolean':
      return v.value;
    case 'long':
    case 'string':
      return v.value;
    case 'bytes':
      return v.base64;
    case 'message':
      return v.json as PlainValue;
    case 'list':
      return v.items.map(toPlainValue);
    case 'map':
      return v.entries.map((e) => ({ key: toPlainValue(e.key), value: toPlainValue(e.value) }));
    case 'tuple':
      return v.fields.map(toPlainValue);
    case 'pojo':
      return Object.fromEntries(v.fields.map((f) => [f.name, toPlainValue(f.value)]));
    case 'ttl':
      return { value: toPlainValue(v.value), lastAccessTimestamp: v.lastAccessTimestamp };
    case 'enum':
      return v.name ?? v.ordinal;
    case 'void-namespace':
      return 'VoidNamespace';
    case 'row':
      // a Table/SQL row: its change kind, then each column by name
      return { rowKind: v.rowKind, ...Object.fromEntries(v.fields.map((f) => [f.name, toPlainValue(f.value)])) };
    default:
      return v;
  }
}

/** A plain value as one text cell: strings as themselves, everything else as JSON. */
export function formatPlainText(v: PlainValue): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}
