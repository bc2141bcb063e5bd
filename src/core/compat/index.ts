/** The facade of src/core/compat: what other folders use, and nothing else (everything else stays inside the folder). */
export { type DiffDeclaration, type SchemaDiff, buildSchemaDiff } from './diff/build-schema-diff';
export { createRowKeyText } from './value-scan/create-row-key-text';
export { deriveJavaClassName } from './descriptors/derive-java-class-name';
export { type MemberRow } from './diff/describe-declaration-members';
export { type NewDeclaration, describeNewDeclaration, findNewField } from './diff/describe-new-declaration';
export { type DescribedScanFinding, describeProtobufStateScan, describeScanFinding } from './rules/describe-scan-finding';
export { type StateCompatibility, evaluateStateCompatibility } from './rules/evaluate-state-compatibility';
export { addJobJarConflictFindings } from './rules/evaluate-job-jar-conflicts';
export { type ValueWarningTally, createValueWarningCollector, finishValueWarnings } from './rules/evaluate-value-warnings';
export { type ValueWarningPlan, planValueWarnings } from './rules/plan-value-warnings';
export { evaluateKryoProtobufState } from './rules/evaluate-kryo-protobuf-state';
export { evaluatePeerSerdeState } from './rules/evaluate-peer-serde-state';
export {
  type FoundKryoProtobufState,
  type FoundOtherState,
  type FoundPeerSerdeState,
  type FoundProtobufState,
  findProtobufStates,
} from './serializers/find-protobuf-states';
export { identifyProtobufSchema } from './value-scan/identify-protobuf-schema';
export { type DeclarationIndex, indexDeclarations } from './descriptors/index-declarations';
export { createSavepointRegistry } from './serializers/create-savepoint-registry';
export { inspectProtobufStates } from './serializers/inspect-protobuf-states';
export { type SavedSchema, listSavedSchemas } from './serializers/list-saved-schemas';
export { createDescriptorFileCache, loadDescriptorSet } from './descriptors/load-descriptor-set';
export { normalizeForComparison } from './descriptors/normalize-for-comparison';
export { readSavedSettings } from './serializers/read-saved-settings';
export { PROTOBUF_SUPERTYPES } from './serializers/recognize-kryo-protobuf';
export { getRule, splitRuleMessage, type RuleParams, type ValueRuleId } from './rules/index';
export { describeEntryKey, scanProtobufStateValues } from './value-scan/scan-protobuf-state-values';
export {
  DEFAULT_SETTINGS,
  type Finding,
  type FindingRuleId,
  type InferredEvaluation,
  type LibraryLine,
  type SerializerSettings,
  type TypeKind,
  type Verdict,
} from './types';
export { type ValueWarning } from './value-scan-types';
export { orderFilesByImports } from './descriptors/order-files-by-imports';
