/**
 * Dremel shredding of one leaf column: the values and the repetition and definition levels of the
 * leaf at the end of `path` (the nodes below the root) over a row group's row values. Written here
 * because hyparquet-writer's shredder knows only LIST/MAP-wrapped repetition, while parquet-protobuf's
 * legacy layout has bare repeated fields and repeated groups (docs/export.md).
 *
 * ParquetLeafColumn gathers one leaf's slots row by row (a shaped value shredded as it comes, or slots
 * pushed straight from a value's wire bytes by shred-protobuf-wire-parquet.ts), with mark/rollback of
 * the slots since the mark.
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
  const column = new ParquetLeafColumn(path);
  for (const row of rows) column.add(row);
  return column.take();
}

/** One leaf column of a row group, gathered row by row. */
export class ParquetLeafColumn {
  values: ParquetValue[] = [];
  definitionLevels: number[] = [];
  repetitionLevels: number[] = [];
  readonly maxDefinitionLevel: number;
  readonly maxRepetitionLevel: number;
  /** the repetition level of each node's own repetition */
  private readonly repLevels: number[] = [];
  private readonly last: number;
  private marked = 0;

  constructor(readonly path: readonly ParquetNode[]) {
    let def = 0;
    let rep = 0;
    for (const node of path) {
      if (node.repetition !== 'REQUIRED') def++;
      if (node.repetition === 'REPEATED') rep++;
      this.repLevels.push(rep);
    }
    this.maxDefinitionLevel = def;
    this.maxRepetitionLevel = rep;
    this.last = path.length - 1;
  }

  /** one slot */
  push(value: ParquetValue, def: number, rep: number): void {
    this.values.push(value);
    this.definitionLevels.push(def);
    this.repetitionLevels.push(rep);
  }

  /** one row's value of the path's first node, shredded */
  add(row: ParquetValue): void {
    this.visit(row, 0, 0, 0);
  }

  mark(): void {
    this.marked = this.values.length;
  }

  /** drops the slots pushed since the mark */
  rollback(): void {
    const n = this.marked;
    this.values.length = n;
    this.definitionLevels.length = n;
    this.repetitionLevels.length = n;
  }

  /** the slots so far; the column is empty afterwards */
  take(): ShreddedColumn {
    const out: ShreddedColumn = {
      values: this.values,
      definitionLevels: this.definitionLevels,
      repetitionLevels: this.repetitionLevels,
      maxDefinitionLevel: this.maxDefinitionLevel,
      maxRepetitionLevel: this.maxRepetitionLevel,
    };
    this.values = [];
    this.definitionLevels = [];
    this.repetitionLevels = [];
    this.marked = 0;
    return out;
  }

  private childOf(value: ParquetValue, depth: number): ParquetValue {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array) {
      throw new Error(`parquet: expected a group value for ${this.path[depth]!.name}`);
    }
    return value[this.path[depth + 1]!.name] ?? null;
  }

  private inner(value: ParquetValue, depth: number, def: number, rep: number): void {
    if (depth === this.last) this.push(value, def, rep);
    else this.visit(this.childOf(value, depth), depth + 1, def, rep);
  }

  private visit(value: ParquetValue | undefined, depth: number, def: number, rep: number): void {
    const node = this.path[depth]!;
    if (node.repetition === 'REPEATED') {
      const items = value === null || value === undefined ? [] : value;
      if (!Array.isArray(items)) throw new Error(`parquet: expected an array for repeated ${node.name}`);
      if (items.length === 0) return this.push(null, def, rep);
      for (let i = 0; i < items.length; i++) this.inner(items[i]!, depth, def + 1, i === 0 ? rep : this.repLevels[depth]!);
      return;
    }
    if (value === null || value === undefined) {
      if (node.repetition === 'REQUIRED') throw new Error(`parquet: required ${node.name} has no value`);
      return this.push(null, def, rep);
    }
    this.inner(value, depth, node.repetition === 'OPTIONAL' ? def + 1 : def, rep);
  }
}
