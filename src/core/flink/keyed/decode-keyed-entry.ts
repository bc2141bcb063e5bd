import { ByteReader, isDecodeError, formatHex } from '../../io';
import type { StateMetaInfo } from '../savepoint/inspection-types';
import type { DecodedValue, SerializerSnapshot, ValueCodec, ValueMode } from '../snapshots/snapshot-types';
import { encodeBase64 } from '../values';

const LIST_SNAPSHOT = 'org.apache.flink.api.common.typeutils.base.ListSerializerSnapshot';
const MAP_SNAPSHOT = 'org.apache.flink.api.common.typeutils.base.MapSerializerSnapshot';
const LIST_DELIMITER = 0x2c;

/** What a state needs to decode its canonical entries. */
export interface KeyedDecodePlan {
  state: StateMetaInfo;
  keySerializer: SerializerSnapshot;
  keyGroupPrefixBytes: number;
  /** both key and namespace serializers are variable-length: length suffixes follow them */
  ambiguousKeyLengths: boolean;
  namespace?: SerializerSnapshot;
  /** VALUE/REDUCING/AGGREGATING: the value serializer; LIST: the element serializer; MAP: the user value serializer; timers: the element serializer */
  value?: SerializerSnapshot;
  userKey?: SerializerSnapshot;
}

export interface DecodedKeyedEntry {
  keyGroup: number;
  key?: DecodedValue;
  namespace?: DecodedValue;
  userKey?: DecodedValue;
  value: DecodedValue | null;
}

/** Derives the decode plan of a keyed state from its meta info. */
export function planKeyedDecode(state: StateMetaInfo, keySerializer: SerializerSnapshot, maxParallelism: number): KeyedDecodePlan {
  const namespace = state.serializers.NAMESPACE_SERIALIZER;
  const stateSerializer = state.serializers.VALUE_SERIALIZER;
  const plan: KeyedDecodePlan = {
    state,
    keySerializer,
    keyGroupPrefixBytes: maxParallelism > 128 ? 2 : 1,
    ambiguousKeyLengths: keySerializer.fixedLength < 0 && (namespace?.fixedLength ?? 0) < 0,
    ...(namespace ? { namespace } : {}),
  };
  if (state.kind === 'LIST' && stateSerializer?.className === LIST_SNAPSHOT && stateSerializer.nested[0]) {
    plan.value = stateSerializer.nested[0];
  } else if (state.kind === 'MAP' && stateSerializer?.className === MAP_SNAPSHOT && stateSerializer.nested.length === 2) {
    plan.userKey = stateSerializer.nested[0]!;
    plan.value = stateSerializer.nested[1]!;
  } else if (state.kind === 'MAP' && state.serializers.USER_KEY_SERIALIZER) {
    plan.userKey = state.serializers.USER_KEY_SERIALIZER;
    if (stateSerializer) plan.value = stateSerializer;
  } else if (stateSerializer) {
    plan.value = stateSerializer;
  }
  return plan;
}

export function describeOpaque(bytes: Uint8Array, reason: string): DecodedValue {
  return { kind: 'opaque', reason, length: bytes.length, base64: encodeBase64(bytes) };
}

/** The bytes of a value whose known serializer failed on them (`decodeFailed`), with the reason. */
export function describeUndecodable(bytes: Uint8Array, reason: string): DecodedValue {
  return { kind: 'opaque', reason, length: bytes.length, base64: encodeBase64(bytes), decodeFailed: true };
}

export function codecOf(s: SerializerSnapshot | undefined): ValueCodec | undefined {
  return s && s.status !== 'unknown' ? s.codec : undefined;
}

function noCodecReason(s: SerializerSnapshot | undefined, role: string): string {
  if (!s) return `no ${role} serializer in the state meta info`;
  if (s.status === 'unknown') return `unknown serializer snapshot ${s.className} v${s.version}`;
  return `${role} serializer ${s.typeLabel} has no value decoder`;
}

/** Skips the little-endian var-int length suffix written after an ambiguous key/namespace and checks it. */
function skipLengthSuffix(r: ByteReader, expected: number, what: string): void {
  const at = r.position;
  let value = 0;
  let shift = 0;
  let v = expected;
  do {
    value += r.readU8(`${what} length suffix`) * 2 ** shift;
    shift += 8;
    v = Math.floor(v / 256);
  } while (v !== 0);
  if (value !== expected) throw r.error('invalid-value', `expected the ${what} length suffix ${expected}, found ${value}`, at);
}

/**
 * Decodes one canonical entry: key-group prefix (must equal `keyGroup`, else a
 * DecodeError at the key), key, length suffixes, namespace, user key (MAP) and the value by
 * state kind. Values and keys whose serializer cannot decode become 'opaque' with a reason;
 * length-prefixed entries always let the stream go on.
 */
export function decodeKeyedEntry(plan: KeyedDecodePlan, key: ByteReader, value: ByteReader, keyGroup: number, mode?: ValueMode): DecodedKeyedEntry {
  return decodeKeyedEntryInto({}, plan, key, value, keyGroup, mode);
}

/**
 * decodeKeyedEntry writing into `base` (its own properties first, then keyGroup, value, key,
 * namespace, userKey as decodeKeyedEntry orders them), so a stream builds one object per entry.
 */
export function decodeKeyedEntryInto<T extends object>(
  base: T,
  plan: KeyedDecodePlan,
  key: ByteReader,
  value: ByteReader,
  keyGroup: number,
  mode?: ValueMode,
): T & DecodedKeyedEntry {
  const out = decodeKeyedEntryKeyInto(base, plan, key, keyGroup);
  if (plan.state.kind !== 'PRIORITY_QUEUE') out.value = decodeValue(plan, value, mode);
  return out;
}

/**
 * The key side of decodeKeyedEntryInto: key-group prefix, key, length suffixes, namespace and user
 * key (a PRIORITY_QUEUE element, which is all key, as the value); the value is left null. The same
 * errors in the same order.
 */
export function decodeKeyedEntryKeyInto<T extends object>(base: T, plan: KeyedDecodePlan, key: ByteReader, keyGroup: number): T & DecodedKeyedEntry {
  const prefixAt = key.position;
  let prefix = 0;
  for (let i = 0; i < plan.keyGroupPrefixBytes; i++) prefix = prefix * 256 + key.readU8('key-group prefix');
  if (prefix !== keyGroup) {
    throw key.error('invalid-value', `expected the key-group prefix of key group ${keyGroup}, found ${prefix}`, prefixAt);
  }
  const out = base as T & DecodedKeyedEntry;
  out.keyGroup = keyGroup;
  out.value = null;
  if (plan.state.kind === 'PRIORITY_QUEUE') {
    const element = decodeOrOpaque(plan.value, 'element', key, true);
    out.value = element;
    if (element.kind === 'timer') {
      out.key = element.key;
      out.namespace = element.namespace;
    }
    return out;
  }
  if (!decodeCompositeKey(plan, key, out)) return out;
  if (plan.userKey) out.userKey = decodeOrOpaque(plan.userKey, 'user key', key, true);
  else if (plan.state.kind === 'MAP')
    out.userKey = describeOpaque(key.readBytes(key.remaining), `user key: ${noCodecReason(plan.state.serializers.VALUE_SERIALIZER, 'map state')}`);
  else if (key.remaining > 0) {
    out.userKey = describeOpaque(key.readBytes(key.remaining), 'unexpected bytes after the namespace');
  }
  return out;
}

/** Key, suffixes and namespace; false when the key could not be split (rest kept opaque). */
function decodeCompositeKey(plan: KeyedDecodePlan, r: ByteReader, out: DecodedKeyedEntry): boolean {
  const keyStart = r.position;
  const keyCodec = codecOf(plan.keySerializer);
  if (!keyCodec) {
    if (plan.keySerializer.fixedLength < 0) {
      out.key = describeOpaque(r.readBytes(r.remaining), `${noCodecReason(plan.keySerializer, 'key')}; key and namespace not separable`);
      return false;
    }
    out.key = describeOpaque(r.readBytes(plan.keySerializer.fixedLength, 'key bytes'), noCodecReason(plan.keySerializer, 'key'));
  } else {
    out.key = keyCodec.decode(r);
  }
  if (plan.ambiguousKeyLengths) skipLengthSuffix(r, r.position - keyStart, 'key');
  const nsStart = r.position;
  const nsCodec = codecOf(plan.namespace);
  if (!nsCodec) {
    out.namespace = describeOpaque(r.readBytes(r.remaining), noCodecReason(plan.namespace, 'namespace'));
    return false;
  }
  out.namespace = nsCodec.decode(r);
  if (plan.ambiguousKeyLengths) skipLengthSuffix(r, r.position - nsStart, 'namespace');
  return true;
}

/** Decodes the whole reader with the serializer, or keeps it opaque with the reason. */
function decodeOrOpaque(s: SerializerSnapshot | undefined, role: string, r: ByteReader, wholeRest: boolean, mode?: ValueMode): DecodedValue {
  const start = r.position;
  const codec = codecOf(s);
  if (!codec) return describeOpaque(r.readBytes(r.remaining), noCodecReason(s, role));
  try {
    const v = codec.decode(r, mode);
    if (wholeRest && r.remaining > 0) {
      throw r.error('invalid-value', `expected the ${role} to fill its ${r.length - start} bytes, found ${r.remaining} bytes left after it`);
    }
    return v;
  } catch (e) {
    if (!isDecodeError(e)) throw e;
    r.seek(start);
    return describeUndecodable(r.readBytes(r.remaining), `${role} could not be decoded as ${s!.typeLabel}: ${e.message}`);
  }
}

function decodeValue(plan: KeyedDecodePlan, r: ByteReader, mode: ValueMode | undefined): DecodedValue | null {
  switch (plan.state.kind) {
    case 'LIST':
      return decodeDelimitedList(plan.value, r, mode);
    case 'MAP': {
      const start = r.position;
      if (r.readBool('map value null flag')) {
        if (r.remaining === 0) return null;
        // a null map value is the flag alone: bytes after it are a corrupt value, never a null
        const e = r.error('invalid-value', `expected nothing after the map value's null flag (set), found ${r.remaining} bytes`, start);
        r.seek(start);
        return describeUndecodable(r.readBytes(r.remaining), `map value could not be decoded: ${e.message}`);
      }
      return decodeOrOpaque(plan.value, 'map value', r, true, mode);
    }
    default:
      return decodeOrOpaque(plan.value, 'value', r, true, mode);
  }
}

/** ListState values: elements separated by one 0x2C byte. */
function decodeDelimitedList(element: SerializerSnapshot | undefined, r: ByteReader, mode: ValueMode | undefined): DecodedValue {
  const codec = codecOf(element);
  if (!codec) return describeOpaque(r.readBytes(r.remaining), noCodecReason(element, 'list element'));
  const start = r.position;
  const items: DecodedValue[] = [];
  try {
    while (r.remaining > 0) {
      items.push(codec.decode(r, mode));
      if (r.remaining > 0) {
        const at = r.position;
        const d = r.readU8('list delimiter');
        if (d !== LIST_DELIMITER)
          throw r.error('invalid-value', `expected the list delimiter 0x2c after element ${items.length - 1}, found 0x${formatHex([d])}`, at);
      }
    }
  } catch (e) {
    if (!isDecodeError(e)) throw e;
    r.seek(start);
    return describeUndecodable(r.readBytes(r.remaining), `list could not be decoded as ${element!.typeLabel} elements: ${e.message}`);
  }
  return { kind: 'list', items };
}
