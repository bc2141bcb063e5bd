export * from './inspector';
export { type CompanionAccess, describeCompanionNeeded } from './open-companion-input';
export { LocalInspector } from './local-inspector';
export { connectWorkerInspector, type WorkerInspector } from './connect-worker-inspector';
export { toInspectorFailure, isInspectorFailure, networkFailure } from './to-inspector-failure';
export { splitInputFiles, isDescriptorSetName, nameSavepointInput } from './split-input-files';
export { readDroppedEntries, readPickedFiles } from './sources';
/** for the UI, which shows bytes as hex but imports nothing of core/io */
export { formatHex, isObjectStoreUrl } from '../core/io';
