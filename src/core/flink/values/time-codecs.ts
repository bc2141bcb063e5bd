import type { ByteReader } from '../../io';
import type { DecodedValue, ValueCodec } from './value-types';

/** Value codecs of the date/time serializers. Texts are ISO-8601 (UTC for instants). */

const LONG_MIN = -(2n ** 63n);
const INT_MIN = -(2 ** 31);

function isoFromMillis(ms: bigint): string {
  const n = Number(ms);
  const d = new Date(n);
  return Number.isFinite(d.getTime()) ? d.toISOString() : `${ms.toString()} ms since epoch`;
}

function millisCodec(type: string): ValueCodec {
  return {
    decode(r: ByteReader): DecodedValue {
      const ms = r.readI64(`${type} millis`);
      return ms === LONG_MIN ? { kind: 'null' } : { kind: 'other', type, text: isoFromMillis(ms) };
    },
  };
}

export const dateCodec = millisCodec('Date');
export const sqlDateCodec = millisCodec('SqlDate');
export const sqlTimeCodec = millisCodec('SqlTime');

export const sqlTimestampCodec: ValueCodec = {
  decode(r) {
    const ms = r.readI64('SqlTimestamp millis');
    const nanos = r.readI32('SqlTimestamp nanos');
    if (ms === LONG_MIN) return { kind: 'null' };
    return { kind: 'other', type: 'SqlTimestamp', text: `${isoFromMillis(ms)} (nanos ${nanos})` };
  },
};

export const instantCodec: ValueCodec = {
  decode(r) {
    const seconds = r.readI64('Instant seconds');
    const nanos = r.readI32('Instant nanos');
    if (seconds === LONG_MIN && nanos === INT_MIN) return { kind: 'null' };
    return { kind: 'other', type: 'Instant', text: `${isoFromMillis(seconds * 1000n).replace(/\.\d{3}Z$/, '')}.${String(nanos).padStart(9, '0')}Z` };
  },
};

function pad(n: number, w: number): string {
  return String(n).padStart(w, '0');
}

function readLocalDate(r: ByteReader): string | null {
  const year = r.readI32('LocalDate year');
  if (year === INT_MIN) {
    r.readI16('LocalDate null marker');
    return null;
  }
  const month = r.readI8('LocalDate month');
  const day = r.readI8('LocalDate day');
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

function readLocalTime(r: ByteReader): string | null {
  const hour = r.readI8('LocalTime hour');
  if (hour === -128) {
    r.readI16('LocalTime null marker');
    r.readI32('LocalTime null marker');
    return null;
  }
  const minute = r.readI8('LocalTime minute');
  const second = r.readI8('LocalTime second');
  const nano = r.readI32('LocalTime nano');
  return `${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}.${pad(nano, 9)}`;
}

export const localDateCodec: ValueCodec = {
  decode(r) {
    const d = readLocalDate(r);
    return d === null ? { kind: 'null' } : { kind: 'other', type: 'LocalDate', text: d };
  },
};

export const localTimeCodec: ValueCodec = {
  decode(r) {
    const t = readLocalTime(r);
    return t === null ? { kind: 'null' } : { kind: 'other', type: 'LocalTime', text: t };
  },
};

export const localDateTimeCodec: ValueCodec = {
  decode(r) {
    const d = readLocalDate(r);
    const t = readLocalTime(r);
    return d === null || t === null ? { kind: 'null' } : { kind: 'other', type: 'LocalDateTime', text: `${d}T${t}` };
  },
};
