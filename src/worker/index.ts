export * from './inspector';
export { type CompanionAccess, describeCompanionNeeded } from './open-companion-input';
export { LocalInspector } from './local-inspector';
export { connectWorkerInspector, type WorkerInspector } from './connect-worker-inspector';
export { toInspectorFailure, networkFailure } from './to-inspector-failure';
export { splitInputFiles } from './split-input-files';
export { readDroppedEntries, readPickedFiles } from './sources';
/** for the UI, which shows bytes as hex but imports nothing of core/io */
export { formatHex, isObjectStoreUrl } from '../core/io';
/** constants of the core the UI shows or compares plain data with (it imports no value of the core: tests/architecture/import-rules.test.ts) */
export { DEFAULT_SETTINGS } from '../core/compat';
export { KRYO_SNAPSHOT_CLASS } from '../core/flink';
export { countValuesNotChecked, KRYO_VALUES_NEED_SAVED_SCHEMA } from '../core/report';
/** a TTL state's expired values under the TTL and time the user types, parsed and counted as `stats --ttl`/`--ttl-at` do */
export { countTtlExpired, parseTtlAt, parseTtlDuration, type TtlExpiredCounts } from '../core/report';
