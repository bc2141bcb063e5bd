/**
 * export/: a state's entries as rows (key group, subtask, key, namespace, user key, element index,
 * value, value size, unknown fields), streamed as JSON Lines, CSV or Parquet with the Protobuf value's
 * schema derived as parquet-protobuf derives it (docs/export.md).
 */
export { exportStates } from './export-state';
export { EXPORT_UNKNOWN_FIELDS_PER_VALUE, type ExportFormat, type ExportProgress, type ParquetListLayout } from './export-types';
