import type { ProtobufStateDetail, StateStatsDetail } from '../../worker';
import type { ProtobufStateScanSummaryView } from './protobuf-stats-types';

/** What the Protobuf views draw of a state's statistics: its details with the scan summary's counts; null when it holds no Protobuf value. */
export function protobufStatsOf(
  stats: StateStatsDetail,
): (ProtobufStateDetail & { values: number; valuesWithUnknownFields: number; summary: ProtobufStateScanSummaryView }) | null {
  const detail = stats.protobufDetail;
  const summary = stats.protobuf;
  if (detail === null || summary === undefined) return null;
  return { ...detail, values: summary.values, valuesWithUnknownFields: summary.valuesWithUnknownFields, summary };
}
