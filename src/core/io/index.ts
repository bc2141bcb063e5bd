/** The facade of src/core/io: what other folders use, and nothing else (everything else stays inside the folder). */
export { ByteReader } from './byte-reader';
export { type ByteSource, bytesSource, readAll } from './byte-source';
export { ByteWriter } from './byte-writer';
export { observeSourceReads } from './observe-source-reads';
export { classifyError } from './classify-error';
export { COMPANION_OPEN_PATH, COMPANION_READ_PATH, type CompanionAbsolute, type CompanionErrorBody, type CompanionManifest } from './companion-protocol';
export { computeMaskedCrc32c } from './compute-crc32';
export { DecodeError, type DecodeErrorCode, type DecodeErrorJson, isDecodeError, withDecodePath, withDecodePathAsync } from './decode-error';
export { SNAPPY_STREAM_IDENTIFIER } from './decode-snappy-chunk';
export { detectInputKind } from './detect-input-kind';
export { formatHex } from './format-hex';
export { haveSameBytes } from './have-same-bytes';
export { type ArchiveLimits, type InputFile, type SkippedEntry } from './input-file';
export { decodeModifiedUtf8, encodeModifiedUtf8, isModifiedUtf8StringAt } from './modified-utf8';
export { baseNameOf } from './normalize-entry-path';
export {
  formatAzureUrl,
  formatGcsUrl,
  formatHdfsUrl,
  formatS3Url,
  isAzureUrl,
  isGcsUrl,
  isHdfsUrl,
  isObjectStoreUrl,
  isS3Url,
  parseAzureUrl,
  parseGcsUrl,
  parseHdfsUrl,
  parseS3Url,
  unsupportedStoreError,
  type AzureLocation,
  type HdfsLocation,
} from './object-store-url';
export { applyPathMap, localPathOf, parsePathMapping, type PathMapping } from './path-map';
export { createHttpFolderFiles, openHttpFolderMetadata } from './open-http-folder';
export { type RangeFetch, openHttpRangeSource } from './open-http-range-source';
export { createBoundedRangeFetch, type BoundedFetchOptions, type FetchPlatform, type HttpDeadlinePassed } from './create-bounded-range-fetch';
export { openSavepointInput } from './open-savepoint-input';
export { openZipArchive } from './open-zip-archive';
export { SnappyFramedReader, decodeSnappyFramed } from './read-snappy-framed';
export { checkMetadataSize, describeAbsentFile, type SavepointFiles } from './savepoint-files';
export { forwardReadInto, sliceSource } from './slice-source';
export { isUsageError, UsageError, type UsageErrorJson, wrongInput } from './usage-error';
export { measureVarint, readVarintAt, VARINT_TOO_LONG, varintCursor, writeVarintAt } from './varint';
