/**
 * Rows of the values table, read on demand: the entry index (scan-state-statistics) names the part
 * (key group or subtask operator state) that holds the first row; scanState reads only that part's
 * bytes, steps over the Protobuf values of the entries before the row (`skip` mode) and decodes just
 * the rows asked for. Nothing is kept after the page is built.
 */
import { DecodeError } from '../core/io';
import {
  scanState,
  type CancelSignal,
  type DecodedValue,
  type OpenedSavepoint,
  type SnapshotRegistry,
  type StateEntry,
  type SubtaskHeaderCache,
  type ValueMode,
} from '../core/flink';
import { listProtobufValueDetails, type DecodedProtobufValue } from '../core/protobuf';
import type { ValueViewCaps } from '../core/report';
import type { EntryProtobufValue, EntryRow, RowCells } from './inspector';
import { findIndexedPart } from './find-indexed-part';
import type { StateEntryIndex } from './scan-state-statistics';
import { summarizeDecodedValue } from './summarize-decoded-value';
import { toEntryProtobufValue } from './to-entry-protobuf-value';
import { requireOperator } from './require-operator';

export interface ReadEntry {
  row: EntryRow;
  /** the entry without the JSON of its Protobuf values (they are in `values`) */
  entry: StateEntry;
  /** the values for the detail pane, cut at the page's caps; empty when the page was read for rows only */
  values: EntryProtobufValue[];
}

export async function readStatePage(
  opened: OpenedSavepoint,
  registry: SnapshotRegistry,
  query: { operatorId: string; state: string },
  index: StateEntryIndex,
  page: { offset: number; limit: number },
  signal: CancelSignal,
  headers: SubtaskHeaderCache,
  /** the caps of the detail pane's values; null: rows only (the values table) */
  detail: ValueViewCaps | null,
): Promise<ReadEntry[]> {
  const out: ReadEntry[] = [];
  const end = Math.min(index.total, page.offset + Math.max(0, page.limit));
  let p = findIndexedPart(index, page.offset);
  if (p < 0) return out;
  const op = requireOperator(opened, query.operatorId);
  for (; p < index.parts.length && page.offset + out.length < end; p++) {
    const part = index.parts[p]!;
    const from = Math.max(page.offset, part.first) - part.first;
    const stop = Math.min(part.count, end - part.first);
    // the mode is looked up as each value is read: skip before the first row, decode from it on (heap
    // key groups and changelog parts read entries before they are visited: decoded throughout)
    const values: { mode: ValueMode } = { mode: from > 0 ? 'skip' : 'decode' };
    let k = 0;
    await scanState(
      opened,
      registry,
      {
        operatorId: op.id,
        states: query.state,
        subtasks: [part.subtask],
        ...(part.keyGroup < 0 ? { scopes: ['operator'] } : { scopes: ['keyed'], keyGroups: [part.keyGroup] }),
      },
      {
        part(read) {
          // heap key groups, and a changelog's parts (a heap materialized snapshot, entries held for their changes), decode before they visit
          if (read.format === 'heap' || read.format === 'changelog') values.mode = 'decode';
        },
        entry(e) {
          if (k >= from) out.push(toReadEntry(part.first + k, e, listProtobufValueDetails(e.value), detail));
          if (++k >= stop) return false;
          if (k >= from) values.mode = 'decode';
          return true;
        },
      },
      { values, signal, headers },
    );
    if (k < stop) {
      const where = `subtask ${part.subtask}${part.keyGroup >= 0 ? `, key group ${part.keyGroup}` : ''}`;
      throw new DecodeError({
        code: 'invalid-value',
        detail: `expected ${part.count} entries of state ${query.state} in ${where} (as its scan counted), found ${k}`,
        path: [query.state, where],
      });
    }
  }
  return out;
}

function toReadEntry(index: number, entry: StateEntry, values: DecodedProtobufValue[], detail: ValueViewCaps | null): ReadEntry {
  const row: EntryRow = {
    index,
    subtask: entry.subtask,
    keyGroup: entry.keyGroup,
    ...(entry.key ? { key: summarizeDecodedValue(entry.key) } : {}),
    ...(entry.namespace ? { namespace: summarizeDecodedValue(entry.namespace) } : {}),
    ...(entry.userKey ? { userKey: summarizeDecodedValue(entry.userKey) } : {}),
    value: summarizeDecodedValue(entry.value),
    size: entry.valueRange.length,
    unknownFields: values.reduce((n, v) => n + v.detail.unknownFields.length, 0),
    ...(entry.key?.kind === 'row' ? { keyRow: toRowCells(entry.key) } : {}),
    ...(entry.value?.kind === 'row' ? { valueRow: toRowCells(entry.value) } : {}),
  };
  // the frames are views into reused read buffers: the detail's values are copied (cut) now, while they hold this entry
  return { row, entry: lightenEntry(entry), values: detail === null ? [] : values.map((v) => toEntryProtobufValue(v, detail)) };
}

/** A Table row's kind and one short text per field (the values table's typed columns). */
function toRowCells(row: Extract<DecodedValue, { kind: 'row' }>): RowCells {
  return { rowKind: row.rowKind, cells: row.fields.map((f) => summarizeDecodedValue(f.value, 80)) };
}

/** The entry without the JSON views of its Protobuf values (the detail carries them once), nor what the read keeps on them. */
export function lightenEntry(entry: StateEntry): StateEntry {
  return entry.value === null ? entry : { ...entry, value: lightenValue(entry.value) };
}

function lightenValue(v: DecodedValue): DecodedValue {
  switch (v.kind) {
    case 'message':
      // the string-keyed properties only (the decoder's detail stays behind)
      return { ...(Object.fromEntries(Object.entries(v)) as typeof v), json: null };
    case 'list':
      return { ...v, items: v.items.map(lightenValue) };
    case 'ttl':
      return { ...v, value: lightenValue(v.value) };
    default:
      return v;
  }
}
