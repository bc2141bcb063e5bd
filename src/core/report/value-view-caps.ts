/**
 * How much of one decoded value a view shows: `dump` and the app's entry detail pane cut at the same
 * bounds, so memory follows what the user asked to see, not what a value declares. Each view says where
 * it cut; `dump --full-values` and the pane's "show the whole value" lift the caps.
 */
export interface ValueViewCaps {
  /** characters of the value's JSON rendering; a longer value is not rendered */
  valueChars: number;
  /** unknown fields listed per message */
  unknownFields: number;
  /** bytes of one unknown field shown as hex */
  unknownFieldBytes: number;
  /** bytes of one value's frame sent to a hex view */
  frameBytes: number;
  /** byte ranges (declared and unknown fields) a hex view colours */
  fieldRanges: number;
}

import type { DecodedValue } from '../flink';
import { listProtobufValueDetails, measureDecodedValueJson, measureJsonLength, type PbElement, type PbMessage } from '../protobuf';

const MiB = 1024 * 1024;

export const VALUE_VIEW_CAPS: Readonly<ValueViewCaps> = { valueChars: MiB, unknownFields: 1000, unknownFieldBytes: 256, frameBytes: MiB, fieldRanges: 10_000 };
export const NO_VALUE_VIEW_CAPS: Readonly<ValueViewCaps> = {
  valueChars: Infinity,
  unknownFields: Infinity,
  unknownFieldBytes: Infinity,
  frameBytes: Infinity,
  fieldRanges: Infinity,
};

/** Whether v's JSON rendering fits in `limit` characters; a huge value is measured only up to just past the limit, never rendered. */
export function fitsJsonLimit(v: unknown, limit: number): boolean {
  return limit === Infinity || measureJsonLength(v, limit) <= limit;
}

/**
 * Whether a decoded value's JSON rendering fits in `limit` characters. A Protobuf value's JSON view is made
 * when first read: when the decoded messages alone prove the view longer than the limit (a map of 300,000
 * entries is at least 1.2 million characters), the view is never made — a value that will not be shown
 * costs no copy of itself as JSON.
 */
export function fitsValueJsonLimit(v: DecodedValue, limit: number): boolean {
  if (limit === Infinity) return true;
  let least = 0;
  for (const d of listProtobufValueDetails(v)) {
    least += leastProtoJsonLength(d.detail.message, limit - least);
    if (least > limit) return false;
  }
  // a message's JSON view is measured from its text, written once and kept for printing
  return measureDecodedValueJson(v, limit) <= limit;
}

/**
 * A lower bound of the length of a message's ProtoJSON, counted up to just past `limit`: only what ProtoJSON
 * always prints — a map entry is at least `"":` and one character of value, a list element one character
 * and a separator, a set message field one character — so the bound never exceeds the real length.
 */
function leastProtoJsonLength(m: PbMessage, limit: number): number {
  // a message is at least one character: `{}`, or a well-known type's own form (an Int32Value of 0 is `0`)
  let total = 1;
  const element = (e: PbElement): void => {
    if (typeof e === 'object' && e !== null && (e as { kind?: unknown }).kind === 'message') total += leastProtoJsonLength(e as PbMessage, limit - total);
    else total += 1;
  };
  for (const fv of m.fields.values()) {
    if (total > limit) return total;
    if (fv.kind === 'map') {
      for (const { value } of fv.entries.values()) {
        total += 3;
        element(value);
        if (total > limit) return total;
      }
    } else if (fv.kind === 'list') {
      for (const value of fv.values) {
        element(value);
        if (total > limit) return total;
      }
    } else if (typeof fv.value === 'object' && fv.value !== null && (fv.value as { kind?: unknown }).kind === 'message') {
      total += leastProtoJsonLength(fv.value as PbMessage, limit - total);
    }
  }
  return total;
}
