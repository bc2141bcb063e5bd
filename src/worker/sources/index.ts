export { blobSource, toInputFiles } from './blob-source';
export { openBrowserHttpSource } from './http-range-source';
export { readDroppedEntries, readPickedFiles, walkFileSystemEntries, type DroppedFile } from './read-dropped-entries';
