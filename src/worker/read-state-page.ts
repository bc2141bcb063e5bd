/**
 * Rows of the values table, read on demand: the entry index (scan-state-statistics) names the part
 * (key group or subtask operator state) that holds the first row; only that part's bytes are read,
 * entries before the row are skipped without decoding their Protobuf values, and just the rows
 * asked for are decoded in full. Nothing is kept after the page is built.
 */
import { DecodeError } from '../core/io';
import type { CancelSignal, DecodedValue, OpenedSavepoint, SnapshotRegistry, StateEntry } from '../core/flink';
import type { EntryProtobufValue, EntryRow } from './inspector';
import { findIndexedPart } from './find-indexed-part';
import { readStatePart, type SubtaskStreamCache } from './read-state-part';
import { findValueFrames, type ProtobufReadControl, type WorkerProtobufFrame } from './register-worker-protobuf-readers';
import type { StateEntryIndex } from './scan-state-statistics';
import { summarizeDecodedValue } from './summarize-decoded-value';
import { toEntryProtobufValue } from './to-entry-protobuf-value';

export interface ReadEntry {
  row: EntryRow;
  /** the entry without the JSON of its Protobuf values (they are in `values`) */
  entry: StateEntry;
  values: EntryProtobufValue[];
}

export async function readStatePage(
  opened: OpenedSavepoint,
  registry: SnapshotRegistry,
  control: ProtobufReadControl,
  query: { operatorId: string; state: string },
  index: StateEntryIndex,
  page: { offset: number; limit: number },
  signal: CancelSignal,
  streams: SubtaskStreamCache,
): Promise<ReadEntry[]> {
  const out: ReadEntry[] = [];
  const end = Math.min(index.total, page.offset + Math.max(0, page.limit));
  let p = findIndexedPart(index, page.offset);
  if (p < 0) return out;
  for (; p < index.parts.length && page.offset + out.length < end; p++) {
    const part = index.parts[p]!;
    const from = Math.max(page.offset, part.first) - part.first;
    const stop = Math.min(part.count, end - part.first);
    const read = await readStatePart(opened, registry, { ...query, signal }, part, streams);
    // lazily decoded (canonical) entries are decoded when pulled: the mode is set before each pull
    const modeFor = (k: number) => (read.eager || k >= from ? 'decode' : 'skip');
    control.mode = modeFor(0);
    let k = 0;
    for await (const e of read.entries) {
      if (k >= from) out.push(toReadEntry(part.first + k, e, findValueFrames(control, e.value)));
      if (++k >= stop) break;
      control.mode = modeFor(k);
    }
    if (k < stop) {
      const where = `subtask ${part.subtask}${part.keyGroup >= 0 ? `, key group ${part.keyGroup}` : ''}`;
      throw new DecodeError({ code: 'invalid-value', detail: `expected ${part.count} entries of state ${query.state} in ${where} (as its scan counted), found ${k}`, path: [query.state, where] });
    }
  }
  return out;
}

function toReadEntry(index: number, entry: StateEntry, frames: WorkerProtobufFrame[]): ReadEntry {
  const row: EntryRow = {
    index,
    subtask: entry.subtask,
    keyGroup: entry.keyGroup,
    ...(entry.key ? { key: summarizeDecodedValue(entry.key) } : {}),
    ...(entry.namespace ? { namespace: summarizeDecodedValue(entry.namespace) } : {}),
    ...(entry.userKey ? { userKey: summarizeDecodedValue(entry.userKey) } : {}),
    value: summarizeDecodedValue(entry.value),
    size: entry.valueRange.length,
    unknownFields: frames.reduce((n, f) => n + (f.detail?.unknownFields.length ?? 0), 0),
  };
  return { row, entry: lightenEntry(entry), values: frames.flatMap((f) => (f.detail ? [toEntryProtobufValue(f)] : [])) };
}

/** The entry without the JSON views of its Protobuf values (the detail carries them once), nor their frames. */
export function lightenEntry(entry: StateEntry): StateEntry {
  return entry.value === null ? entry : { ...entry, value: lightenValue(entry.value) };
}

function lightenValue(v: DecodedValue): DecodedValue {
  switch (v.kind) {
    case 'message':
      // the string-keyed properties only: a spread would also copy the frame the read keeps on the value under a symbol
      return { ...(Object.fromEntries(Object.entries(v)) as typeof v), json: null };
    case 'list':
      return { ...v, items: v.items.map(lightenValue) };
    case 'ttl':
      return { ...v, value: lightenValue(v.value) };
    default:
      return v;
  }
}
