/**
 * JSON Lines and CSV renderings of export rows. JSON Lines: one object per row with keyGroup,
 * subtask, key, namespace, userKey, elementIndex (those the state has), value (Protobuf: ProtoJSON),
 * valueSize and unknownFields [{path, number, wireType, bytes (base64)}] (past EXPORT_UNKNOWN_FIELDS_PER_VALUE:
 * unknownFieldsOmitted, the count left out). CSV (RFC 4180, header row): the same columns, structured cells as
 * JSON text (the count left out as a last element {omitted} of unknown_fields).
 */
import { encodeBase64 } from '../flink';
import type { ExportRow } from './export-types';
import { toPlainValue, type PlainValue } from './to-plain-value';

/** The columns a state's rows have (the first row decides: every entry of one state has the same parts). */
export interface ExportColumns {
  key: boolean;
  namespace: boolean;
  userKey: boolean;
  elementIndex: boolean;
}

export function listExportColumns(row: ExportRow): ExportColumns {
  return {
    key: row.key !== undefined,
    namespace: row.namespace !== undefined,
    userKey: row.userKey !== undefined,
    elementIndex: row.elementIndex !== undefined,
  };
}

/** JSON text written as it is: a value's ProtoJSON text made from its wire bytes (write-protobuf-wire-json.ts) */
class JsonText {
  constructor(readonly text: string) {}
}

type RowMember = PlainValue | JsonText;

function toJsonObject(row: ExportRow, columns: ExportColumns, format: 'jsonl' | 'csv', valueJson: string | undefined): { [name: string]: RowMember } {
  const out: { [name: string]: RowMember } = { keyGroup: row.keyGroup, subtask: row.subtask };
  if (columns.key) out['key'] = toPlainValue(row.key);
  if (columns.namespace) out['namespace'] = toPlainValue(row.namespace);
  if (columns.userKey) out['userKey'] = toPlainValue(row.userKey);
  if (columns.elementIndex) out['elementIndex'] = row.elementIndex ?? null;
  out['value'] = valueJson === undefined ? toPlainValue(row.value) : new JsonText(valueJson);
  out['valueSize'] = row.valueSize;
  const unknown: PlainValue[] = row.unknownFields.map((u) => ({ path: u.path, number: u.number, wireType: u.wireType, bytes: encodeBase64(u.bytes) }));
  out['unknownFields'] = unknown;
  // a value of more unknown fields than an export writes says how many it left out: JSON Lines in a key of its own,
  // CSV (whose columns are fixed) as a last element of the cell's list
  if (row.unknownFieldsOmitted !== undefined) {
    if (format === 'jsonl') out['unknownFieldsOmitted'] = row.unknownFieldsOmitted;
    else unknown.push({ omitted: row.unknownFieldsOmitted });
  }
  return out;
}

/**
 * One JSON line as pieces whose concatenation is the line (what JSON.stringify gives): a large string
 * that needs no escaping (a bytes field's base64: a 60 MB field is an 80 MB string) is a piece of its own,
 * never copied into the line, so the line is encoded and written a slice at a time. `valueJson`: the value's
 * JSON text made from its wire bytes, written in place of the row's (null) value.
 */
export function formatJsonLinePieces(row: ExportRow, columns: ExportColumns, valueJson?: string): string[] {
  const pieces: string[] = [];
  pushJson(toJsonObject(row, columns, 'jsonl', valueJson), pieces);
  pieces.push('\n');
  return pieces;
}

/** Strings at least this long are written as pieces of their own when they need no escaping. */
const LARGE_STRING = 1 << 16;
/** what JSON.stringify escapes in a string: quotes, backslashes, control characters, lone surrogates (tested loosely: any surrogate) */
// eslint-disable-next-line no-control-regex -- the control characters JSON.stringify escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** The pieces of JSON.stringify(v) (v a plain value: no toJSON, cycles or bigints). */
function pushJson(v: unknown, out: string[]): void {
  if (v instanceof JsonText) {
    out.push(v.text);
    return;
  }
  if (typeof v === 'string') {
    if (v.length >= LARGE_STRING && !NEEDS_ESCAPE.test(v)) out.push('"', v, '"');
    else out.push(JSON.stringify(v));
    return;
  }
  if (v === null || typeof v !== 'object' || typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    out.push(JSON.stringify(v) ?? 'null');
    return;
  }
  const skipped = (x: unknown) => x === undefined || typeof x === 'function' || typeof x === 'symbol';
  if (Array.isArray(v)) {
    out.push('[');
    v.forEach((x, i) => {
      if (i > 0) out.push(',');
      if (skipped(x)) out.push('null');
      else pushJson(x, out);
    });
    out.push(']');
    return;
  }
  out.push('{');
  let first = true;
  for (const [k, x] of Object.entries(v)) {
    if (skipped(x)) continue;
    out.push(`${first ? '' : ','}${JSON.stringify(k)}:`);
    first = false;
    pushJson(x, out);
  }
  out.push('}');
}

export function formatCsvHeader(columns: ExportColumns): string {
  const names = ['key_group', 'subtask'];
  if (columns.key) names.push('key');
  if (columns.namespace) names.push('namespace');
  if (columns.userKey) names.push('user_key');
  if (columns.elementIndex) names.push('element_index');
  names.push('value', 'value_size', 'unknown_fields');
  return `${names.join(',')}\r\n`;
}

/** One CSV row as pieces whose concatenation is the row: a large cell (or a large string inside a JSON cell) is never copied into a row string. */
export function formatCsvRowPieces(row: ExportRow, columns: ExportColumns, valueJson?: string): string[] {
  const o = toJsonObject(row, columns, 'csv', valueJson);
  const pieces: string[] = [];
  for (const v of Object.values(o)) {
    if (pieces.length > 0) pieces.push(',');
    if (v === null) continue;
    if (typeof v === 'string') {
      pieces.push(quoteCsv(v));
      continue;
    }
    // a structured cell: its JSON text, quoted when it holds a quote, comma or line break (as RFC 4180 asks)
    const cell: string[] = [];
    pushJson(v, cell);
    if (!cell.some((p) => CSV_SPECIAL.test(p))) pieces.push(...cell);
    else pieces.push('"', ...cell.map((p) => p.replace(/"/g, '""')), '"');
  }
  pieces.push('\r\n');
  return pieces;
}

const CSV_SPECIAL = /[",\r\n]/;

function quoteCsv(text: string): string {
  return CSV_SPECIAL.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
