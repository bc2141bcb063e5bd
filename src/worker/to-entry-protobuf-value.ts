import type { DecodedProtobufValue } from '../core/protobuf';
import { fitsJsonLimit, type ValueViewCaps } from '../core/report';
import type { EntryProtobufValue } from './inspector';

/** Bytes of an unknown field the detail pane's table shows. */
const UNKNOWN_FIELD_HEAD_BYTES = 32;

/**
 * A decoded value as the detail pane needs it, cut at the caps `dump` uses (core/report's
 * VALUE_VIEW_CAPS): the JSON only when its rendering fits, at most so many unknown fields (each with
 * its first bytes) and field ranges, and the frame's first bytes for the hex view (a copy); offsets
 * relative to the frame. What was cut is said on the value, so the pane can say it.
 */
export function toEntryProtobufValue({ detail: d, frame }: DecodedProtobufValue, caps: ValueViewCaps): EntryProtobufValue {
  const base = d.frameOffset;
  const shownBytes = Math.min(frame.length, caps.frameBytes);
  const jsonFits = fitsJsonLimit(d.json, caps.valueChars);
  const unknown = d.unknownFields.length > caps.unknownFields ? d.unknownFields.slice(0, caps.unknownFields) : d.unknownFields;
  const inView = d.fieldRanges.filter((r) => r.offset - base < shownBytes);
  const ranges = inView.length > caps.fieldRanges ? inView.slice(0, caps.fieldRanges) : inView;
  const headBytes = Math.min(UNKNOWN_FIELD_HEAD_BYTES, caps.unknownFieldBytes);
  return {
    typeName: d.typeName,
    frame: frame.slice(0, shownBytes),
    frameSize: frame.length,
    frameOffset: base,
    payloadSize: d.payloadSize,
    depth: d.depth,
    json: jsonFits ? d.json : null,
    ...(jsonFits ? {} : { jsonOmitted: `its JSON is longer than ${caps.valueChars.toLocaleString('en-US')} characters` }),
    unknownFields: unknown.map((u) => ({
      path: u.path,
      number: u.number,
      wireType: u.wireType,
      offset: u.offset - base,
      length: u.length,
      head: u.raw.slice(0, headBytes),
    })),
    ...(unknown.length < d.unknownFields.length ? { unknownFieldsOmitted: d.unknownFields.length - unknown.length } : {}),
    fieldRanges: ranges.map((r) => ({ path: r.path, number: r.number, known: r.known, offset: r.offset - base, length: r.length })),
    ...(ranges.length < d.fieldRanges.length ? { fieldRangesOmitted: d.fieldRanges.length - ranges.length } : {}),
  };
}

/** Whether the view of a value left anything out. */
export function isCutValue(v: EntryProtobufValue): boolean {
  return v.frame.length < v.frameSize || v.jsonOmitted !== undefined || v.unknownFieldsOmitted !== undefined || v.fieldRangesOmitted !== undefined;
}
