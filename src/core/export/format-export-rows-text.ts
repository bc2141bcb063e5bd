/**
 * JSON Lines and CSV renderings of export rows. JSON Lines: one object per row with keyGroup,
 * subtask, key, namespace, userKey, elementIndex (those the state has), value (Protobuf: ProtoJSON),
 * valueSize and unknownFields [{path, number, wireType, bytes (base64)}]. CSV (RFC 4180, header row):
 * the same columns, structured cells as JSON text.
 */
import { encodeBase64 } from '../flink';
import type { ExportRow } from './export-types';
import { formatPlainText, toPlainValue, type PlainValue } from './to-plain-value';

/** The columns a state's rows have (the first row decides: every entry of one state has the same parts). */
export interface ExportColumns {
  key: boolean;
  namespace: boolean;
  userKey: boolean;
  elementIndex: boolean;
}

export function listExportColumns(row: ExportRow): ExportColumns {
  return { key: row.key !== undefined, namespace: row.namespace !== undefined, userKey: row.userKey !== undefined, elementIndex: row.elementIndex !== undefined };
}

function toJsonObject(row: ExportRow, columns: ExportColumns): { [name: string]: PlainValue } {
  const out: { [name: string]: PlainValue } = { keyGroup: row.keyGroup, subtask: row.subtask };
  if (columns.key) out['key'] = toPlainValue(row.key);
  if (columns.namespace) out['namespace'] = toPlainValue(row.namespace);
  if (columns.userKey) out['userKey'] = toPlainValue(row.userKey);
  if (columns.elementIndex) out['elementIndex'] = row.elementIndex ?? null;
  out['value'] = toPlainValue(row.value);
  out['valueSize'] = row.valueSize;
  out['unknownFields'] = row.unknownFields.map((u) => ({ path: u.path, number: u.number, wireType: u.wireType, bytes: encodeBase64(u.bytes) }));
  return out;
}

export function formatJsonLine(row: ExportRow, columns: ExportColumns): string {
  return `${JSON.stringify(toJsonObject(row, columns))}\n`;
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

export function formatCsvRow(row: ExportRow, columns: ExportColumns): string {
  const o = toJsonObject(row, columns);
  const cells = Object.values(o).map((v) => quoteCsv(v === null ? '' : formatPlainText(v)));
  return `${cells.join(',')}\r\n`;
}

function quoteCsv(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
