/**
 * What the value-aware warnings need from the structural scan of saved values, as plain data: the
 * protobuf module's scan (or a test) fills it per value.
 */
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

export interface ValueWarning {
  ruleId:
    | 'UNKNOWN_NUMBER_BECOMES_FIELD'
    | 'UNKNOWN_REUSES_DECLARED_NUMBER'
    | 'UNKNOWN_NUMBER_TOO_LARGE'
    | 'VALUE_EXCEEDS_NEW_LIMIT'
    | 'REMOVED_FIELD_RETAINED'
    | 'ALIASING_RETENTION';
  message: string;
  /** number of saved values affected */
  count: number;
  /** keys of the first affected values (at most MAX_WARNING_KEYS) */
  keys: string[];
  /** message full name and field number, when the warning is about one field */
  location?: { message: string; number: number };
}

export const MAX_WARNING_KEYS = 20;
export const ALIASING_THRESHOLD_BYTES = 4096;
