/** The facade of src/core/report: what other folders use, and nothing else (everything else stays inside the folder). */
export { type DescribedStateFindings, type NewFieldDeclarations, type ReportStateView, type ReportView, buildReportView } from './build-report-view';
export { type AlertState, type BecomesFieldAlert, type ExceedsLimitAlert } from './collect-value-alerts';
export { evaluateSnapshotVerdicts, type SnapshotStateVerdict, type SnapshotVerdicts } from './evaluate-snapshot-verdicts';
export {
  type CheckSavepointInput,
  type EvaluatedProtobufState,
  type StateValuesNotRead,
  type StateValueTally,
  type ValueScanner,
} from './check-savepoint-types';
export { checkSavepoint } from './check-savepoint';
export { countValuesNotChecked, KRYO_VALUES_NEED_SAVED_SCHEMA, kryoValuesNotRead, peerValuesNotRead } from './values-not-read-reasons';
export { compareDescriptorSets } from './compare-descriptor-sets';
export { createStatisticsVisitor } from './create-statistics-visitor';
export { createStateValueScanner } from './create-state-value-scanner';
export { describeJobJarSchema } from './describe-new-schema';
export { describeSourcesAndSinks } from './describe-sources-and-sinks';
export { evaluateSavepointStates } from './evaluate-savepoint-states';
export { REPORT_FORMATS, type ReportFormat, formatReport, formatShowsSchemaDiff } from './format-report';
export { formatSarifFailure } from './format-sarif';
export { createProtoSourceLocator } from './locate-proto-sources';
export { mergeStateValueTallies } from './merge-state-value-tallies';
export { type CompatibilityReport, type ReportFinding, type ReportInputFile, type ReportState, type ReportWarning } from './report-types';
export { groupStatesByOperator, IN_THREAD_VALUE_SCANNER } from './scan-values-by-operator';
export { type StateStats } from './state-stats';
export { computeExitCode, formatExitCodeLines } from './verdict-exit-codes';
export { fitsJsonLimit, fitsValueJsonLimit, NO_VALUE_VIEW_CAPS, VALUE_VIEW_CAPS, type ValueViewCaps } from './value-view-caps';
export { diffSavepoints } from './savepoint-diff/diff-savepoints';
export { evaluateDiffFailures } from './savepoint-diff/evaluate-diff-failures';
export { formatSavepointDiffMarkdown, formatSavepointDiffText } from './savepoint-diff/format-savepoint-diff';
export type { Change, DiffOperatorRef, OperatorDiff, SavepointDiff, StateDiff } from './savepoint-diff/savepoint-diff-types';
export { buildSizeBreakdown, type KeyGroupSizes, sizedStatesOf, type SizeBreakdown, type SizeKind, type SizePart } from './size-breakdown';
export { countTimersByOperator, finishValueSizes, sizedStatesOfStats } from './state-stats';
export {
  addTtlEntry,
  createTtlTally,
  isTtlValue,
  mergeTtlTallies,
  newestTtlAccess,
  parseTtlAt,
  parseTtlDuration,
  type TtlExpiry,
  type TtlTally,
} from './ttl-tally';
export { countTtlExpired, type TtlAccessHistogram, TtlAccessCounter, type TtlExpiredCounts } from './ttl-access-histogram';
export { addValueSize, createValueSizeTally, type KeyGroupSkew, type LargestValue, mergeValueSizeTallies } from './value-size-tally';
