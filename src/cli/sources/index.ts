export { openNodeFileSource } from './node-file-source';
export { openNodeHttpSource } from './http-range-source';
export { type NodeInputOptions, openNodeInput, reopenOptions, storeReachedBy, type ReopenOptions, walkFolder } from './open-node-input';
export { openNodeHttpFolder, isHttpFolderUrl } from './open-node-http-folder';
export { createNodeRangeFetch } from './node-range-fetch';
export { checkRegularFile, readDescriptorSetFile } from './read-descriptor-set-file';
export { looksLikeJar, readJobJar } from './read-job-jar';
export { describeHttpDeadlinePassed, runWithHttpDeadline } from './http-deadline';
export { isStreamedInput, spoolStreamedInput, type SpooledInput } from './spool-streamed-input';
