/**
 * export/: a state's entries as rows (key group, subtask, key, namespace, user key, element index,
 * value, value size, unknown fields), streamed as JSON Lines, CSV or Parquet with the Protobuf value's
 * schema derived as parquet-protobuf derives it (docs/export.md).
 */
export { PARQUET_PROTO_MAX_RECURSION, deriveParquetFields } from './derive-parquet-schema';
export { type ExportStateRequest, type ExportStateResult, exportState } from './export-state';
export { type ExportFormat, type ExportProgress, type ExportRow, type ExportSink, type ParquetListLayout } from './export-types';
export { formatParquetSchemaText } from './format-parquet-schema-text';
export { type ParquetNode } from './parquet-schema-types';
