/**
 * A message's compact ProtoJSON text written straight from the decoded message: exactly
 * `JSON.stringify(formatProtobufJson(msg))`, without first building the object tree (the text views —
 * `dump`, export's JSON column — print each value once; building the tree, measuring it and stringifying
 * it took a third of a `dump` of a table of 5 KB values). The traversal and every value's form are
 * formatProtobufJson's (the same helpers); only the output differs.
 *
 * Alongside the text it counts the measure measureJsonLength gives the object tree (each string its length
 * and 2, each other scalar its String() length, an array 2 and each element 1 more, an object 2 and each
 * member its key's length and 4), so a caller can apply the value-view caps by the same rule, and it stops
 * as soon as that measure passes `limit`: a value over the cap costs no text past the cap (a bytes field is
 * measured before its base64 is made).
 */
import { ScalarType, type DescField } from '@bufbuild/protobuf';
import { encodeBase64 } from '../flink';
import { isPbMessage } from './create-pb-message';
import { decodeUtf8 } from './decode-utf8';
import { isSingularPresent } from './encode-protobuf-message';
import { formatWellKnownJson } from './format-well-known-json';
import { formatElement, formatScalar, getJsonName, type JsonValue } from './format-protobuf-json';
import { measureJsonLength } from './measure-json-length';
import type { PbElement, PbMessage, PbScalar } from './protobuf-message-types';

export interface RenderedProtobufJson {
  /** JSON.stringify(formatProtobufJson(msg)), or with `indent` JSON.stringify(…, null, 2) with `indent` after each line break */
  text: string;
  /** measureJsonLength(formatProtobufJson(msg)) */
  measure: number;
}

/**
 * The message's JSON text and measure, or undefined once the measure passes `limit`. With `indent`, the
 * text is pretty-printed as JSON.stringify(…, null, 2) prints it, each line after the first starting with
 * `indent` (the text's place in an enclosing pretty-printed document).
 */
export function renderProtobufJson(msg: PbMessage, limit = Infinity, indent?: string): RenderedProtobufJson | undefined {
  const w: Writer = { text: '', measure: 0, limit, indent, depth: 0 };
  if (!writeObject(w, msg)) return undefined;
  return { text: w.text, measure: w.measure };
}

/** What opens a member or element at the writer's depth: a comma after the first, and in pretty text a line break and indentation. */
function opening(w: Writer, first: boolean): string {
  if (w.indent === undefined) return first ? '' : ',';
  return `${first ? '' : ','}\n${w.indent}${'  '.repeat(w.depth)}`;
}

/** What closes a non-empty object or array one level up from the writer's depth. */
function closing(w: Writer, bracket: string): string {
  return w.indent === undefined ? bracket : `\n${w.indent}${'  '.repeat(w.depth - 1)}${bracket}`;
}

/**
 * The text is appended with `+=`: the engine keeps it as a rope of the pieces and copies it once, when
 * it is written out; an array of parts joined here was one more copy of every value (for a table of 5 KB
 * values, a third of all memory allocated).
 */
interface Writer {
  text: string;
  measure: number;
  limit: number;
  /** pretty text: the indentation every line after the first starts with; undefined for compact text */
  indent: string | undefined;
  /** nesting inside the root object (pretty text: two spaces each) */
  depth: number;
}

/** A value formatProtobufJson's helpers made (a well-known type's form): its text and measure. */
function writeJson(w: Writer, v: JsonValue): boolean {
  w.measure += measureJsonLength(v, w.limit - w.measure);
  if (w.measure > w.limit) return false;
  w.text += w.indent === undefined ? JSON.stringify(v) : JSON.stringify(v, null, 2).replace(/\n/g, `\n${w.indent}${'  '.repeat(w.depth)}`);
  return true;
}

/** formatProtobufJson: set fields by number, under their JSON names. */
function writeObject(w: Writer, msg: PbMessage): boolean {
  w.text += '{';
  w.measure += 2;
  w.depth++;
  const numbers = fieldNumbersInOrder(msg);
  let first = true;
  for (const no of numbers) {
    const fv = msg.fields.get(no)!;
    const field = fv.field;
    if (fv.kind === 'singular' && !isSingularPresent(field, fv.value)) continue;
    if (fv.kind === 'list' && fv.values.length === 0) continue;
    if (fv.kind === 'map' && field.fieldKind !== 'map') continue;
    const name = getJsonName(field);
    w.text += `${opening(w, first)}${JSON.stringify(name)}${w.indent === undefined ? ':' : ': '}`;
    w.measure += name.length + 4;
    first = false;
    if (fv.kind === 'singular') {
      if (!writeElement(w, field, fv.value)) return false;
    } else if (fv.kind === 'list') {
      w.text += '[';
      w.measure += 2;
      w.depth++;
      for (let i = 0; i < fv.values.length; i++) {
        w.text += opening(w, i === 0);
        w.measure++;
        if (!writeElement(w, field, fv.values[i]!)) return false;
      }
      w.text += closing(w, ']');
      w.depth--;
    } else if (field.fieldKind === 'map' && !writeMap(w, field, fv.entries)) return false;
    if (w.measure > w.limit) return false;
  }
  w.text += first ? '}' : closing(w, '}');
  w.depth--;
  return w.measure <= w.limit;
}

/** The message's field numbers, ascending (as they mostly arrive: then not sorted again). */
function fieldNumbersInOrder(msg: PbMessage): number[] {
  const numbers = [...msg.fields.keys()];
  for (let i = 1; i < numbers.length; i++) if (numbers[i]! < numbers[i - 1]!) return numbers.sort((a, b) => a - b);
  return numbers;
}

/**
 * A map field as formatProtobufJson's object holds it: a key set twice keeps its first place and its last
 * value, and keys that are array indices come first in ascending order (JavaScript's own property order,
 * which JSON.stringify follows).
 */
function writeMap(w: Writer, field: Extract<DescField, { fieldKind: 'map' }>, entries: Map<string, { key: PbScalar; value: PbElement }>): boolean {
  const members = new Map<string, PbElement>();
  for (const { key, value } of entries.values()) members.set(String(formatScalar(field.mapKey, key)), value);
  const keys = [...members.keys()];
  const indices = keys.filter(isArrayIndex);
  const ordered = indices.length === 0 ? keys : [...indices.sort((a, b) => Number(a) - Number(b)), ...keys.filter((k) => !isArrayIndex(k))];
  w.text += '{';
  w.measure += 2;
  w.depth++;
  for (let i = 0; i < ordered.length; i++) {
    const key = ordered[i]!;
    w.text += `${opening(w, i === 0)}${JSON.stringify(key)}${w.indent === undefined ? ':' : ': '}`;
    w.measure += key.length + 4;
    const value = members.get(key)!;
    if (isPbMessage(value)) {
      if (!writeMessage(w, value)) return false;
    } else if (field.mapKind === 'enum') {
      if (!writeJson(w, formatElement(field, value))) return false;
    } else if (!writeScalar(w, field.scalar!, value)) return false;
    if (w.measure > w.limit) return false;
  }
  w.text += ordered.length === 0 ? '}' : closing(w, '}');
  w.depth--;
  return true;
}

/** A canonical array index (0 … 2³² − 2): JavaScript orders such keys first. */
function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) <= 4294967294;
}

/** formatElement: a message, an enum by name, or a scalar. */
function writeElement(w: Writer, field: DescField, v: PbElement): boolean {
  if (isPbMessage(v)) return writeMessage(w, v);
  if (field.enum !== undefined) return writeJson(w, formatElement(field, v));
  return writeScalar(w, field.scalar!, v);
}

/** formatMessage: a well-known type's own form, else the object. */
function writeMessage(w: Writer, msg: PbMessage): boolean {
  const known = msg.desc.typeName.startsWith('google.protobuf.') ? formatWellKnownJson(msg, formatFieldOf) : undefined;
  return known === undefined ? writeObject(w, msg) : writeJson(w, known);
}

function formatFieldOf(msg: PbMessage, no: number): JsonValue | undefined {
  const fv = msg.fields.get(no);
  if (fv?.kind !== 'singular') return undefined;
  return formatElement(fv.field, fv.value);
}

/** formatScalar, with bytes measured before their base64 is made. */
function writeScalar(w: Writer, type: ScalarType, v: PbScalar): boolean {
  if (v instanceof Uint8Array && type !== ScalarType.STRING) {
    w.measure += Math.ceil(v.length / 3) * 4 + 2;
    if (w.measure > w.limit) return false;
    // base64 needs no escaping
    w.text += `"${encodeBase64(v)}"`;
    return true;
  }
  if (v instanceof Uint8Array) {
    const text = decodeUtf8(v, 0, v.length, false)!;
    w.measure += text.length + 2;
    if (w.measure > w.limit) return false;
    w.text += JSON.stringify(text);
    return true;
  }
  const json = formatScalar(type, v);
  w.measure += typeof json === 'string' ? json.length + 2 : String(json).length;
  w.text += JSON.stringify(json);
  return w.measure <= w.limit;
}
