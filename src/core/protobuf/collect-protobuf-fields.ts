/**
 * Flattens a decoded message into display lists: every unknown field with its nested path and
 * raw bytes, and the byte range of every field occurrence (for the hex view). Offsets are
 * payload-relative plus `base`.
 */
import { isPbMessage } from './create-pb-message';
import type { PbFieldRangeInfo, PbMessage, PbUnknownField, PbUnknownFieldInfo } from './protobuf-message-types';

export function collectProtobufUnknownFields(msg: PbMessage, payload: Uint8Array, base = 0): PbUnknownFieldInfo[] {
  const out: PbUnknownFieldInfo[] = [];
  walkMessages(msg, '', (m, path) => addUnknown(m.unknown, path, payload, base, out));
  return out;
}

export function collectProtobufFieldRanges(msg: PbMessage, base = 0): PbFieldRangeInfo[] {
  const out: PbFieldRangeInfo[] = [];
  walkMessages(msg, '', (m, path) => {
    for (const fv of m.fields.values()) {
      const name = join(path, fv.field.name);
      for (const r of fv.ranges) out.push({ path: name, number: fv.field.number, known: true, offset: base + r.offset, length: r.length });
    }
    for (const u of m.unknown)
      out.push({ path: join(path, String(u.number)), number: u.number, known: false, offset: base + u.range.offset, length: u.range.length });
  });
  return out.sort((a, b) => a.offset - b.offset);
}

function addUnknown(fields: readonly PbUnknownField[], path: string, payload: Uint8Array, base: number, out: PbUnknownFieldInfo[]): void {
  for (const u of fields) {
    out.push({
      path,
      number: u.number,
      wireType: u.wireType,
      offset: base + u.range.offset,
      length: u.range.length,
      raw: payload.subarray(u.range.offset, u.range.offset + u.range.length),
    });
    if (u.wireType === 3) addUnknown(u.value, join(path, String(u.number)), payload, base, out);
  }
}

/** Visits the message and every nested message with its path (`child.items[2]`, `nodes["k"]`). */
export function walkMessages(msg: PbMessage, path: string, visit: (m: PbMessage, path: string) => void, depth = 0): void {
  if (depth > 5000) return;
  visit(msg, path);
  // a path is made only for a field that holds messages: a scalar field costs nothing here
  for (const fv of msg.fields.values()) {
    if (fv.kind === 'singular') {
      if (isPbMessage(fv.value)) walkMessages(fv.value, join(path, fv.field.name), visit, depth + 1);
    } else if (fv.kind === 'list') {
      for (let i = 0; i < fv.values.length; i++) {
        const v = fv.values[i]!;
        if (isPbMessage(v)) walkMessages(v, `${join(path, fv.field.name)}[${i}]`, visit, depth + 1);
      }
    } else {
      for (const [k, e] of fv.entries) if (isPbMessage(e.value)) walkMessages(e.value, `${join(path, fv.field.name)}[${JSON.stringify(k)}]`, visit, depth + 1);
    }
  }
}

function join(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}
