/**
 * Value-aware warnings: joins the scan of the saved values with the new
 * schema. Above all UNKNOWN_NUMBER_BECOMES_FIELD: a saved value carries an unknown field whose number
 * the new schema declares, so the new parser reads those retained bytes as the added field.
 */
import { FieldDescriptorProto_Label, FieldDescriptorProto_Type, type FieldDescriptorProto } from '@bufbuild/protobuf/wkt';
import { MAX_FIELD_NUMBER } from './describe-descriptor-parts';
import type { SchemaChangeResult } from './evaluate-schema-change';
import { createValueWarning } from './create-finding';
import { getRule, RULES, type RuleParams, type ValueRuleId } from './index';
import type { SerializerSettings } from '../types';
import { ALIASING_THRESHOLD_BYTES, MAX_WARNING_KEYS, type ScannedValue, type ValueWarning } from '../value-scan-types';

interface Bucket {
  /** what makes two hits the same warning (rule, message, number) */
  key: string;
  ruleId: ValueRuleId;
  /** the warning's parameters but its tally (count, largest) */
  params: Record<string, string | number>;
  location?: { message: string; number: number };
  count: number;
  keys: string[];
  largest: number;
}

export function evaluateValueWarnings(values: Iterable<ScannedValue>, schema: SchemaChangeResult, newSettings: SerializerSettings): ValueWarning[] {
  const collector = createValueWarningCollector(schema, newSettings);
  for (const value of values) collector.add(value);
  return collector.finish();
}

export interface ValueWarningCollector {
  /** Counts one saved value; nothing of it is kept beyond the first MAX_WARNING_KEYS keys per warning. */
  add(value: ScannedValue): void;
  finish(): ValueWarning[];
  /** What was counted so far, as plain data (it crosses worker threads), for finishValueWarnings. */
  tally(): ValueWarningTally;
}

/** The counts of a collector: one entry per warning, its example keys in scan order. */
export interface ValueWarningTally {
  buckets: Bucket[];
}

/**
 * The warnings of several tallies of one state, in scan order (e.g. one per subtask, scanned in
 * parallel): the same as one collector fed every value in that order gives. Counts add, the largest
 * size is the maximum, and the example keys are the first MAX_WARNING_KEYS of the tallies' keys in turn.
 */
export function finishValueWarnings(tallies: readonly ValueWarningTally[]): ValueWarning[] {
  const merged = new Map<string, Bucket>();
  for (const t of tallies) {
    for (const b of t.buckets) {
      const into = merged.get(b.key);
      if (into === undefined) {
        merged.set(b.key, { ...b, keys: b.keys.slice(0, MAX_WARNING_KEYS) });
        continue;
      }
      into.count += b.count;
      into.largest = Math.max(into.largest, b.largest);
      for (const k of b.keys) if (into.keys.length < MAX_WARNING_KEYS) into.keys.push(k);
    }
  }
  return [...merged.values()].sort(compareBuckets).map((b) => {
    const params = { ...b.params, count: b.count, ...(showsLargest(b.ruleId) ? { largest: b.largest } : {}) } as RuleParams<ValueRuleId>;
    return createValueWarning(b.ruleId, params, b.count, b.keys, b.location);
  });
}

/** Whether the rule's message shows the largest size or depth of the affected values. */
function showsLargest(ruleId: ValueRuleId): boolean {
  return getRule(ruleId).template.includes('{largest}');
}

/** The same warnings as evaluateValueWarnings, fed one value at a time while the state is scanned (bounded memory). */
export function createValueWarningCollector(schema: SchemaChangeResult, newSettings: SerializerSettings): ValueWarningCollector {
  const nextBySaved = new Map<string, Map<number, FieldDescriptorProto>>();
  const savedFields = new Map<string, Map<number, FieldDescriptorProto>>();
  for (const pair of schema.reached) {
    if (pair.saved.kind !== 'message' || pair.next.kind !== 'message') continue;
    nextBySaved.set(pair.saved.fullName, new Map(pair.next.proto.field.map((f) => [f.number, f])));
    savedFields.set(pair.saved.fullName, new Map(pair.saved.proto.field.map((f) => [f.number, f])));
  }
  const removedReserved = new Set(schema.findings.filter((f) => f.ruleId === 'FIELD_REMOVED_RESERVED').map((f) => f.path));
  const buckets = new Map<string, Bucket>();
  const hit = (key: string, make: () => Omit<Bucket, 'key' | 'count' | 'keys' | 'largest'>, value: ScannedValue, size = 0): void => {
    let b = buckets.get(key);
    if (!b) buckets.set(key, (b = { key, ...make(), count: 0, keys: [], largest: 0 }));
    b.count++;
    b.largest = Math.max(b.largest, size);
    if (b.keys.length < MAX_WARNING_KEYS) b.keys.push(value.key);
  };

  // whether a present known field is one the new schema removes and reserves, memoized per (message, number)
  const retainedCache = new Map<string, Map<number, boolean>>();
  const isRemovedReserved = (message: string, number: number): boolean => {
    let byNumber = retainedCache.get(message);
    if (byNumber === undefined) retainedCache.set(message, (byNumber = new Map()));
    let removed = byNumber.get(number);
    if (removed === undefined) {
      const name = savedFields.get(message)?.get(number)?.name ?? '';
      byNumber.set(number, (removed = removedReserved.has(`${message}.${name} (${number})`)));
    }
    return removed;
  };
  const aliasing = newSettings.largePayloadAliasing ?? true;

  // called once per saved value: a value that hits no warning allocates nothing
  const add = (value: ScannedValue): void => {
    let seen: Set<string> | undefined;
    const once = (key: string, make: () => Omit<Bucket, 'key' | 'count' | 'keys' | 'largest'>, size = 0): void => {
      seen ??= new Set();
      if (seen.has(key)) return;
      seen.add(key);
      hit(key, make, value, size);
    };
    for (const u of value.unknownFields) {
      const declared = nextBySaved.get(u.message)?.get(u.number);
      if (u.number > MAX_FIELD_NUMBER) {
        once(`large|${u.message}|${u.number}`, () => ({
          ruleId: 'UNKNOWN_NUMBER_TOO_LARGE',
          params: { number: u.number, message: u.message },
          location: { message: u.message, number: u.number },
        }));
      } else if (declared && acceptsWireType(declared, u.wireType)) {
        const wasDeclared = savedFields.get(u.message)?.has(u.number) ?? false;
        const ruleId = wasDeclared ? 'UNKNOWN_REUSES_DECLARED_NUMBER' : 'UNKNOWN_NUMBER_BECOMES_FIELD';
        once(`${ruleId}|${u.message}|${u.number}`, () => ({
          ruleId,
          params: { number: u.number, message: u.message, name: declared.name, ...(wasDeclared ? { wireType: describeWireType(u.wireType) } : {}) },
          location: { message: u.message, number: u.number },
        }));
      }
    }
    if (removedReserved.size > 0) {
      for (const k of value.knownFields) {
        if (isRemovedReserved(k.message, k.number)) {
          const name = savedFields.get(k.message)?.get(k.number)?.name ?? '';
          once(`removed|${k.message}|${k.number}`, () => ({
            ruleId: 'REMOVED_FIELD_RETAINED',
            params: { number: k.number, name, message: k.message },
            location: { message: k.message, number: k.number },
          }));
        }
      }
    }
    if (value.payloadSize > newSettings.maxMessageSize) {
      once('size', () => ({ ruleId: 'VALUE_EXCEEDS_NEW_LIMIT', params: { limit: 'maxMessageSize', value: newSettings.maxMessageSize } }), value.payloadSize);
    }
    if (value.depth > newSettings.recursionLimit) {
      once('depth', () => ({ ruleId: 'VALUE_EXCEEDS_NEW_LIMIT', params: { limit: 'recursionLimit', value: newSettings.recursionLimit } }), value.depth);
    }
    if (
      aliasing &&
      value.payloadSize > ALIASING_THRESHOLD_BYTES &&
      (value.knownFields.some((k) => k.bytes) || value.unknownFields.some((u) => u.wireType === 2))
    ) {
      once('aliasing', () => ({ ruleId: 'ALIASING_RETENTION', params: {} }), value.payloadSize);
    }
  };
  const tally = (): ValueWarningTally => ({ buckets: [...buckets.values()] });
  return { add, finish: () => finishValueWarnings([tally()]), tally };
}

/** the registry's order of the value rules */
const ORDER: readonly string[] = RULES.filter((r) => r.group === 'value').map((r) => r.id);

/** The value rules' order first, then location, so the output is stable whatever the scan order. */
function compareBuckets(a: Bucket, b: Bucket): number {
  const byRule = ORDER.indexOf(a.ruleId) - ORDER.indexOf(b.ruleId);
  if (byRule !== 0) return byRule;
  const am = a.location?.message ?? String(a.params.limit ?? '');
  const bm = b.location?.message ?? String(b.params.limit ?? '');
  if (am !== bm) return am < bm ? -1 : 1;
  return (a.location?.number ?? 0) - (b.location?.number ?? 0);
}

const VARINT_TYPES = new Set([
  FieldDescriptorProto_Type.INT32,
  FieldDescriptorProto_Type.INT64,
  FieldDescriptorProto_Type.UINT32,
  FieldDescriptorProto_Type.UINT64,
  FieldDescriptorProto_Type.SINT32,
  FieldDescriptorProto_Type.SINT64,
  FieldDescriptorProto_Type.BOOL,
  FieldDescriptorProto_Type.ENUM,
]);
const FIXED64_TYPES = new Set([FieldDescriptorProto_Type.FIXED64, FieldDescriptorProto_Type.SFIXED64, FieldDescriptorProto_Type.DOUBLE]);
const FIXED32_TYPES = new Set([FieldDescriptorProto_Type.FIXED32, FieldDescriptorProto_Type.SFIXED32, FieldDescriptorProto_Type.FLOAT]);

/** Whether protobuf-java's parser merges a field of this wire type into the declared field (protobuf-java's CodedInputStream: a mismatched wire type stays an unknown field). */
function acceptsWireType(field: FieldDescriptorProto, wireType: number): boolean {
  return acceptsWireTypeOf(field.type, field.label === FieldDescriptorProto_Label.REPEATED, wireType);
}

/** acceptsWireType by the declared field's type and whether it is repeated (packed encodings are length-delimited). */
export function acceptsWireTypeOf(type: FieldDescriptorProto_Type, repeated: boolean, wireType: number): boolean {
  if (VARINT_TYPES.has(type)) return wireType === 0 || (repeated && wireType === 2);
  if (FIXED64_TYPES.has(type)) return wireType === 1 || (repeated && wireType === 2);
  if (FIXED32_TYPES.has(type)) return wireType === 5 || (repeated && wireType === 2);
  if (type === FieldDescriptorProto_Type.GROUP) return wireType === 3;
  return wireType === 2;
}

export function describeWireType(wireType: number): string {
  return ['VARINT', 'I64', 'LEN', 'SGROUP', 'EGROUP', 'I32'][wireType] ?? `wire type ${wireType}`;
}
