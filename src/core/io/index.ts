/** The facade of src/core/io: what other folders use, and nothing else (everything else stays inside the folder). */
export { ByteReader } from './byte-reader';
export { type ByteSource, bytesSource, readAll } from './byte-source';
export { ByteWriter } from './byte-writer';
export { classifyError } from './classify-error';
export { DecodeError, type DecodeErrorCode, type DecodeErrorJson, isDecodeError, withDecodePath, withDecodePathAsync } from './decode-error';
export { SNAPPY_STREAM_IDENTIFIER } from './decode-snappy-chunk';
export { detectInputKind } from './detect-input-kind';
export { type ArchiveLimits, type InputFile } from './input-file';
export { decodeModifiedUtf8, encodeModifiedUtf8, isModifiedUtf8StringAt } from './modified-utf8';
export { baseNameOf } from './normalize-entry-path';
export { createHttpFolderFiles, openHttpFolderMetadata } from './open-http-folder';
export { type RangeFetch, type RangeFetchBodyReader, type RangeFetchResponse, openHttpRangeSource } from './open-http-range-source';
export { openSavepointInput } from './open-savepoint-input';
export { openZipArchive } from './open-zip-archive';
export { SnappyFramedReader, decodeSnappyFramed } from './read-snappy-framed';
export { checkMetadataSize, type SavepointFiles } from './savepoint-files';
export { forwardReadInto, sliceSource } from './slice-source';
export { UsageError, type UsageErrorJson, wrongInput } from './usage-error';
