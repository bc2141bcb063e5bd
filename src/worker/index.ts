export * from './inspector';
export { LocalInspector } from './local-inspector';
export { connectWorkerInspector, type WorkerInspector } from './connect-worker-inspector';
export { toInspectorFailure, isInspectorFailure } from './to-inspector-failure';
export { classifyInputFiles, baseName, dirName } from './classify-input-files';
