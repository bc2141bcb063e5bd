/**
 * The value warnings of createValueWarningCollector as a table another program applies (scan-job's Java
 * collector): every warning a saved value can hit, with its bucket key, rule and parameters exactly as the
 * collector makes them, looked up by what the value shows (an unknown field's message, number and wire type; a
 * known field's message and number; its size and depth). The collector's logic stays here, beside it; the
 * other side only looks entries up, counts them once per value, and keeps the first example keys in scan order.
 */
import type { FieldDescriptorProto } from '@bufbuild/protobuf/wkt';
import type { SchemaChangeResult } from './evaluate-schema-change';
import { acceptsWireTypeOf, describeWireType } from './evaluate-value-warnings';
import { FieldDescriptorProto_Label } from '@bufbuild/protobuf/wkt';
import type { SerializerSettings } from '../types';
import { ALIASING_THRESHOLD_BYTES, MAX_WARNING_KEYS } from '../value-scan-types';

/** One warning a value can hit: the collector's bucket without its tally. */
export interface PlannedValueWarning {
  key: string;
  ruleId: string;
  params: Record<string, string | number>;
  location?: { message: string; number: number };
}

export interface ValueWarningPlan {
  warnings: PlannedValueWarning[];
  /** `message|number|wireType` of an unknown field → index in warnings */
  unknown: Record<string, number>;
  /** `message|number` of a present known field → index in warnings (fields the new schema removes and reserves) */
  known: Record<string, number>;
  /** the warning of a payload above the new maxMessageSize, of a depth above the new recursionLimit, of aliasing (null: off) */
  size: number;
  depth: number;
  aliasing: number | null;
  maxMessageSize: number;
  recursionLimit: number;
  aliasingThresholdBytes: number;
  maxWarningKeys: number;
}

const WIRE_TYPES = [0, 1, 2, 3, 5];

export function planValueWarnings(schema: SchemaChangeResult, newSettings: SerializerSettings): ValueWarningPlan {
  const warnings: PlannedValueWarning[] = [];
  const add = (w: PlannedValueWarning): number => warnings.push(w) - 1;
  const unknown: Record<string, number> = {};
  const known: Record<string, number> = {};
  const removedReserved = new Set(schema.findings.filter((f) => f.ruleId === 'FIELD_REMOVED_RESERVED').map((f) => f.path));
  for (const pair of schema.reached) {
    if (pair.saved.kind !== 'message' || pair.next.kind !== 'message') continue;
    const message = pair.saved.fullName;
    const saved = new Map<number, FieldDescriptorProto>(pair.saved.proto.field.map((f) => [f.number, f]));
    for (const declared of pair.next.proto.field) {
      const wasDeclared = saved.has(declared.number);
      const ruleId = wasDeclared ? 'UNKNOWN_REUSES_DECLARED_NUMBER' : 'UNKNOWN_NUMBER_BECOMES_FIELD';
      for (const wireType of WIRE_TYPES) {
        if (!acceptsWireTypeOf(declared.type, declared.label === FieldDescriptorProto_Label.REPEATED, wireType)) continue;
        unknown[`${message}|${declared.number}|${wireType}`] = add({
          key: `${ruleId}|${message}|${declared.number}`,
          ruleId,
          params: { number: declared.number, message, name: declared.name, ...(wasDeclared ? { wireType: describeWireType(wireType) } : {}) },
          location: { message, number: declared.number },
        });
      }
    }
    for (const f of pair.saved.proto.field) {
      if (!removedReserved.has(`${message}.${f.name} (${f.number})`)) continue;
      known[`${message}|${f.number}`] = add({
        key: `removed|${message}|${f.number}`,
        ruleId: 'REMOVED_FIELD_RETAINED',
        params: { number: f.number, name: f.name, message },
        location: { message, number: f.number },
      });
    }
  }
  const maxMessageSize = newSettings.maxMessageSize;
  const recursionLimit = newSettings.recursionLimit;
  const size = add({ key: 'size', ruleId: 'VALUE_EXCEEDS_NEW_LIMIT', params: { limit: 'maxMessageSize', value: maxMessageSize } });
  const depth = add({ key: 'depth', ruleId: 'VALUE_EXCEEDS_NEW_LIMIT', params: { limit: 'recursionLimit', value: recursionLimit } });
  const aliasing = (newSettings.largePayloadAliasing ?? true) ? add({ key: 'aliasing', ruleId: 'ALIASING_RETENTION', params: {} }) : null;
  return {
    warnings,
    unknown,
    known,
    size,
    depth,
    aliasing,
    maxMessageSize,
    recursionLimit,
    aliasingThresholdBytes: ALIASING_THRESHOLD_BYTES,
    maxWarningKeys: MAX_WARNING_KEYS,
  };
}
