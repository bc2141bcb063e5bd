import type { DecodedValue } from '../core/flink';

const MAX_ITEMS = 4;

/** One-line text of a decoded value for table cells, cut at `max` characters. */
export function summarizeDecodedValue(v: DecodedValue | null | undefined, max = 160): string {
  const text = v === undefined ? '' : v === null ? 'null' : describe(v, 0);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function describe(v: DecodedValue, depth: number): string {
  if (depth > 8) return '…';
  const d = (x: DecodedValue) => describe(x, depth + 1);
  const some = <T>(xs: readonly T[], f: (x: T) => string) =>
    xs.slice(0, MAX_ITEMS).map(f).join(', ') + (xs.length > MAX_ITEMS ? `, … ${xs.length - MAX_ITEMS} more` : '');
  switch (v.kind) {
    case 'null':
      return 'null';
    case 'int':
    case 'boolean':
      return String(v.value);
    case 'long':
      return v.value;
    case 'float':
      return String(v.value);
    case 'string':
      return JSON.stringify(v.value);
    case 'bytes':
      return `bytes[${v.length}]`;
    case 'tuple':
      return `(${some(v.fields, d)})`;
    case 'list':
      return `[${some(v.items, d)}]`;
    case 'map':
      return `{${some(v.entries, (e) => `${d(e.key)}: ${d(e.value)}`)}}`;
    case 'pojo':
      return `${shortClass(v.className)}{${some(v.fields, (f) => `${f.name}=${d(f.value)}`)}}`;
    case 'row':
      return `${v.rowKind}(${some(v.fields, (f) => `${f.name}=${d(f.value)}`)})`;
    case 'ttl':
      return `${d(v.value)} (ttl ${v.lastAccessTimestamp})`;
    case 'timer':
      return `timer @${v.timestamp} key ${d(v.key)} ns ${d(v.namespace)}`;
    case 'void-namespace':
      return 'VoidNamespace';
    case 'time-window':
      return `TimeWindow[${v.start}, ${v.end})`;
    case 'global-window':
      return 'GlobalWindow';
    case 'enum':
      return v.name ?? `${shortClass(v.className)}#${v.ordinal}`;
    case 'java-serialized':
      return v.text !== undefined ? JSON.stringify(v.text) : `java-serialized[${v.length}]`;
    case 'other':
      return v.text;
    case 'opaque':
      return `opaque[${v.length}]`;
    case 'message':
      return `${v.typeName} ${compactJson(v.json)}`;
    case 'frame':
      return `${v.format} frame[${v.length}]`;
  }
}

function shortClass(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}

function compactJson(json: unknown): string {
  try {
    return JSON.stringify(json, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)) ?? '';
  } catch {
    return '{…}';
  }
}
