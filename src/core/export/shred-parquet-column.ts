/**
 * Dremel shredding of one leaf column: the values and the repetition and definition levels of the
 * leaf at the end of `path` (the nodes below the root) over a row group's row values. Written here
 * because hyparquet-writer's shredder knows only LIST/MAP-wrapped repetition, while parquet-protobuf's
 * legacy layout has bare repeated fields and repeated groups (docs/export.md).
 */
import type { ParquetNode } from './parquet-schema-types';
import type { ParquetValue } from './to-parquet-message-value';

export interface ShreddedColumn {
  /** one per level slot: the value, or null where the slot holds no value */
  values: ParquetValue[];
  definitionLevels: number[];
  repetitionLevels: number[];
  maxDefinitionLevel: number;
  maxRepetitionLevel: number;
}

export function shredParquetColumn(path: readonly ParquetNode[], rows: readonly ParquetValue[]): ShreddedColumn {
  const out: ShreddedColumn = { values: [], definitionLevels: [], repetitionLevels: [], maxDefinitionLevel: 0, maxRepetitionLevel: 0 };
  // the repetition level of each node's own repetition
  const repLevels: number[] = [];
  for (const node of path) {
    if (node.repetition !== 'REQUIRED') out.maxDefinitionLevel++;
    if (node.repetition === 'REPEATED') out.maxRepetitionLevel++;
    repLevels.push(out.maxRepetitionLevel);
  }
  const last = path.length - 1;
  const emit = (value: ParquetValue, def: number, rep: number) => {
    out.values.push(value);
    out.definitionLevels.push(def);
    out.repetitionLevels.push(rep);
  };
  const childOf = (value: ParquetValue, depth: number): ParquetValue => {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array) {
      throw new Error(`parquet: expected a group value for ${path[depth]!.name}`);
    }
    return value[path[depth + 1]!.name] ?? null;
  };
  const inner = (value: ParquetValue, depth: number, def: number, rep: number) => {
    if (depth === last) emit(value, def, rep);
    else visit(childOf(value, depth), depth + 1, def, rep);
  };
  const visit = (value: ParquetValue | undefined, depth: number, def: number, rep: number) => {
    const node = path[depth]!;
    if (node.repetition === 'REPEATED') {
      const items = value === null || value === undefined ? [] : value;
      if (!Array.isArray(items)) throw new Error(`parquet: expected an array for repeated ${node.name}`);
      if (items.length === 0) return emit(null, def, rep);
      items.forEach((item, i) => inner(item, depth, def + 1, i === 0 ? rep : repLevels[depth]!));
      return;
    }
    if (value === null || value === undefined) {
      if (node.repetition === 'REQUIRED') throw new Error(`parquet: required ${node.name} has no value`);
      return emit(null, def, rep);
    }
    inner(value, depth, node.repetition === 'OPTIONAL' ? def + 1 : def, rep);
  };
  for (const row of rows) visit(row, 0, 0, 0);
  return out;
}
