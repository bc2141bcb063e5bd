/**
 * A Parquet schema in parquet-java's MessageType.toString() notation, e.g.
 * `optional binary name (STRING) = 2;` — the text the Java cross-check records
 * (fixtures/parquet-check), so the schemas can be compared without Java.
 */
import type { ParquetNode } from './parquet-schema-types';

export function formatParquetSchemaText(name: string, fields: readonly ParquetNode[]): string {
  const lines = [`message ${name} {`];
  for (const f of fields) writeNode(f, '  ', lines);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function writeNode(n: ParquetNode, indent: string, lines: string[]): void {
  const rep = n.repetition.toLowerCase();
  const id = n.fieldId === undefined ? '' : ` = ${n.fieldId}`;
  const logical = n.logical === undefined ? '' : ` (${n.logical})`;
  if (n.children === undefined) {
    lines.push(`${indent}${rep} ${n.type!.toLowerCase() === 'byte_array' ? 'binary' : n.type!.toLowerCase()} ${n.name}${logical}${id};`);
    return;
  }
  lines.push(`${indent}${rep} group ${n.name}${logical}${id} {`);
  for (const c of n.children) writeNode(c, `${indent}  `, lines);
  lines.push(`${indent}}`);
}
