/**
 * ProtoJSON forms of the well-known types (Timestamp, Duration, wrappers, Struct/Value/ListValue,
 * FieldMask, Empty, Any). Values outside the ranges ProtoJSON allows keep the plain message form
 * (returns undefined). Any is shown as {"@type": url, "value": base64}: the packed type's
 * descriptors are not part of the saved snapshot, so it is not expanded.
 */
import { encodeBase64 } from '../flink';
import { decodeUtf8 } from './decode-utf8';
import { isPbMessage } from './create-pb-message';
import type { PbElement, PbMessage } from './protobuf-message-types';
import { setJsonMember } from './set-json-member';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const WRAPPERS = new Set(
  ['DoubleValue', 'FloatValue', 'Int64Value', 'UInt64Value', 'Int32Value', 'UInt32Value', 'BoolValue', 'StringValue', 'BytesValue'].map(
    (n) => `google.protobuf.${n}`,
  ),
);

/** The ProtoJSON value of a well-known type, or undefined for other messages (or out-of-range values). */
export function formatWellKnownJson(msg: PbMessage, formatScalarField: (msg: PbMessage, no: number) => Json | undefined): Json | undefined {
  const name = msg.desc.typeName;
  if (!name.startsWith('google.protobuf.')) return undefined;
  if (WRAPPERS.has(name)) return formatScalarField(msg, 1) ?? defaultWrapper(name);
  switch (name) {
    case 'google.protobuf.Timestamp':
      return formatTimestamp(bigintField(msg, 1), numberField(msg, 2));
    case 'google.protobuf.Duration':
      return formatDuration(bigintField(msg, 1), numberField(msg, 2));
    case 'google.protobuf.Empty':
      return {};
    case 'google.protobuf.FieldMask':
      return listField(msg, 1)
        .map((p) => (p instanceof Uint8Array ? decodeUtf8(p, 0, p.length, false)! : '').replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()))
        .join(',');
    case 'google.protobuf.Struct':
      return formatStruct(msg, formatScalarField);
    case 'google.protobuf.ListValue':
      return listField(msg, 1).map((v) => (isPbMessage(v) ? (formatValue(v, formatScalarField) ?? null) : null));
    case 'google.protobuf.Value':
      return formatValue(msg, formatScalarField);
    case 'google.protobuf.Any': {
      const url = singular(msg, 1);
      const value = singular(msg, 2);
      return {
        '@type': url instanceof Uint8Array ? decodeUtf8(url, 0, url.length, false)! : '',
        value: value instanceof Uint8Array ? encodeBase64(value) : '',
      };
    }
    default:
      return undefined;
  }
}

function formatStruct(msg: PbMessage, f: (msg: PbMessage, no: number) => Json | undefined): Json {
  const out: { [key: string]: Json } = {};
  const fv = msg.fields.get(1);
  if (fv?.kind === 'map') for (const [k, e] of fv.entries) setJsonMember(out, k, isPbMessage(e.value) ? (formatValue(e.value, f) ?? null) : null);
  return out;
}

function formatValue(msg: PbMessage, f: (msg: PbMessage, no: number) => Json | undefined): Json | undefined {
  for (const [no, fv] of msg.fields) {
    if (fv.kind !== 'singular') continue;
    if (no === 1) return null;
    if (no === 5 && isPbMessage(fv.value)) return formatStruct(fv.value, f);
    if (no === 6 && isPbMessage(fv.value)) return formatWellKnownJson(fv.value, f) ?? null;
    return f(msg, no) ?? null;
  }
  return null;
}

function singular(msg: PbMessage, no: number): PbElement | undefined {
  const fv = msg.fields.get(no);
  return fv?.kind === 'singular' ? fv.value : undefined;
}
function bigintField(msg: PbMessage, no: number): bigint {
  const v = singular(msg, no);
  return typeof v === 'bigint' ? v : 0n;
}
function numberField(msg: PbMessage, no: number): number {
  const v = singular(msg, no);
  return typeof v === 'number' ? v : 0;
}
function listField(msg: PbMessage, no: number): PbElement[] {
  const fv = msg.fields.get(no);
  return fv?.kind === 'list' ? fv.values : [];
}

function defaultWrapper(name: string): Json {
  if (name.endsWith('BoolValue')) return false;
  if (name.endsWith('StringValue') || name.endsWith('BytesValue')) return '';
  if (name.endsWith('Int64Value') || name.endsWith('UInt64Value')) return '0';
  return 0;
}

/** RFC 3339 with 0, 3, 6 or 9 fractional digits; undefined outside 0001-01-01..9999-12-31. */
export function formatTimestamp(seconds: bigint, nanos: number): string | undefined {
  if (seconds < -62135596800n || seconds > 253402300799n || nanos < 0 || nanos > 999_999_999) return undefined;
  const ms = Number(seconds) * 1000;
  const iso = new Date(ms).toISOString(); // YYYY-MM-DDTHH:MM:SS.000Z
  return `${iso.slice(0, 19)}${formatNanos(nanos)}Z`;
}

/** "<seconds>[.fraction]s"; undefined outside ±315,576,000,000 s or with mismatched signs. */
export function formatDuration(seconds: bigint, nanos: number): string | undefined {
  if (seconds < -315576000000n || seconds > 315576000000n || nanos < -999_999_999 || nanos > 999_999_999) return undefined;
  if ((seconds > 0n && nanos < 0) || (seconds < 0n && nanos > 0)) return undefined;
  const negative = seconds < 0n || nanos < 0;
  const abs = seconds < 0n ? -seconds : seconds;
  return `${negative ? '-' : ''}${abs}${formatNanos(Math.abs(nanos))}s`;
}

function formatNanos(nanos: number): string {
  if (nanos === 0) return '';
  if (nanos % 1_000_000 === 0) return `.${String(nanos / 1_000_000).padStart(3, '0')}`;
  if (nanos % 1_000 === 0) return `.${String(nanos / 1_000).padStart(6, '0')}`;
  return `.${String(nanos).padStart(9, '0')}`;
}
