export { blobSource, toInputFiles } from './blob-source';
export { createBrowserRangeFetch, openBrowserHttpSource } from './http-range-source';
export { readDroppedEntries, readPickedFiles, walkFileSystemEntries, type DroppedFile } from './read-dropped-entries';
