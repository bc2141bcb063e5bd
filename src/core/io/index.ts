export * from './decode-error';
export * from './byte-reader';
export * from './byte-writer';
export * from './byte-source';
export * from './modified-utf8';
export * from './savepoint-files';
// archives, inputs and compression
export * from './input-file';
export * from './slice-source';
export * from './normalize-entry-path';
export * from './compute-crc32';
export { openZipArchive } from './open-zip-archive';
export { readZipCentralDirectory, type ZipEntryRecord, type ZipCentralDirectory } from './read-zip-central-directory';
export { openInflatedSource, type InflatedSourceInit } from './open-inflated-source';
export { openTarArchive } from './open-tar-archive';
export { openTarGzArchive } from './open-tar-gz-archive';
export { openGunzipCursor } from './open-gunzip-cursor';
export { walkTarMembers, type TarCursor, type TarWalkItem } from './walk-tar-members';
export * from './detect-input-kind';
export * from './locate-savepoint';
export * from './resolve-state-file';
export * from './open-savepoint-input';
export * from './decode-snappy-chunk';
export * from './read-snappy-framed';
export * from './write-snappy-framed';
export * from './open-http-range-source';
// remote savepoint folders
export * from './open-lazy-http-source';
export * from './open-http-folder';
