/**
 * The export rows of one state entry: one row, or for keyed list state one row per element (with its
 * index). A Protobuf value brings its decoded message and unknown fields (decode-mode scans only).
 */
import type { DecodedValue, StateEntry } from '../flink';
import { listProtobufValueDetails } from '../protobuf';
import type { ExportRow } from './export-types';

export function listExportRows(entry: StateEntry, listState: boolean): ExportRow[] {
  const base = {
    subtask: entry.subtask,
    keyGroup: entry.keyGroup,
    ...(entry.key === undefined ? {} : { key: entry.key }),
    ...(entry.namespace === undefined ? {} : { namespace: entry.namespace }),
    ...(entry.userKey === undefined ? {} : { userKey: entry.userKey }),
  };
  if (listState && entry.value !== null && entry.value.kind === 'list') {
    return entry.value.items.map((item, i) => ({ ...base, elementIndex: i, ...describeValue(item, undefined) }));
  }
  return [{ ...base, ...describeValue(entry.value, entry.valueRange.length) }];
}

function describeValue(value: DecodedValue | null, serializedLength: number | undefined): Pick<ExportRow, 'value' | 'message' | 'valueSize' | 'unknownFields'> {
  const details = listProtobufValueDetails(value);
  const only = details.length === 1 ? details[0]!.detail : undefined;
  if (only !== undefined) {
    return {
      value,
      message: only.message,
      valueSize: only.payloadSize,
      unknownFields: only.unknownFields.map((u) => ({ path: u.path, number: u.number, wireType: u.wireType, bytes: u.raw.slice() })),
    };
  }
  return {
    value,
    valueSize: serializedLength ?? details.reduce((n, d) => n + d.detail.payloadSize, 0),
    unknownFields: details.flatMap((d) => d.detail.unknownFields.map((u) => ({ path: u.path, number: u.number, wireType: u.wireType, bytes: u.raw.slice() }))),
  };
}
