/**
 * What the value-aware warnings need from the structural scan of saved values, as plain data: the
 * protobuf module's scan (or a test) fills it per value.
 */
import type { RuleParams, ValueRuleId } from './rules';

export interface ScannedField {
  /** full name of the message that holds the field (saved schema) */
  message: string;
  number: number;
  wireType: number;
}

export interface ScannedValue {
  /** how the user finds the value: the state key (and user key), as display text */
  key: string;
  /** payload bytes, without the frame prefix */
  payloadSize: number;
  /** deepest message nesting (root 0) */
  depth: number;
  /** unknown fields anywhere in the value (distinct per message/number/wire type) */
  unknownFields: ScannedField[];
  /** known fields present anywhere in the value (distinct per message/number); `bytes` marks bytes-typed ones */
  knownFields: (ScannedField & { bytes?: boolean })[];
}

/** A value warning of rule `Id`; createValueWarning makes every one. */
export interface ValueWarningOf<Id extends ValueRuleId> {
  ruleId: Id;
  /** rendered from the rule's template and `params` */
  message: string;
  /** the values of the template's placeholders (count and largest as in the message) */
  params: RuleParams<Id>;
  /** number of saved values affected */
  count: number;
  /** keys of the first affected values (at most MAX_WARNING_KEYS) */
  keys: string[];
  /** message full name and field number, when the warning is about one field */
  location?: { message: string; number: number };
}

/** A value warning of any value rule: narrowing `ruleId` types `params`. */
export type ValueWarning = { [Id in ValueRuleId]: ValueWarningOf<Id> }[ValueRuleId];

export const MAX_WARNING_KEYS = 20;
export const ALIASING_THRESHOLD_BYTES = 4096;
