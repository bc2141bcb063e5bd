import type { ByteSource } from './byte-source';

/** One file of an input: its path inside the folder or archive ('/'-separated) and its bytes. */
export interface InputFile {
  readonly path: string;
  readonly source: ByteSource;
}

/**
 * An entry of a folder that was not taken as a file: a FIFO, a device, a socket, a link to one of these or to a
 * folder, or a folder deeper than the walk goes. Kept so that messages say what `_metadata` or a state file is
 * instead of "no such file".
 */
export interface SkippedEntry {
  /** '/'-separated path inside the folder */
  readonly path: string;
  /** what it is, e.g. "a FIFO (named pipe)", "a folder more than 16 levels deep (not walked)" */
  readonly what: string;
  /** a folder below the walk's depth limit: its content is unknown */
  readonly tooDeep?: boolean;
}

/** What an archive opener returns: its files (directories dropped) and what it had to warn about. */
export interface ArchiveListing {
  readonly kind: 'zip' | 'tar' | 'tar.gz';
  readonly name: string;
  readonly files: readonly InputFile[];
  readonly warnings: readonly string[];
}

/**
 * Expansion limits against zip/gzip bombs. Sizes in bytes. The ratio limit applies once an entry
 * (or a gzip stream) is larger than `ratioFloor`, so tiny highly-compressible files pass.
 */
export interface ArchiveLimits {
  /** largest uncompressed size of one entry (declared and actual) */
  readonly maxEntryBytes: number;
  /** largest sum of declared uncompressed sizes of all entries / largest gunzipped stream */
  readonly maxTotalBytes: number;
  /** largest uncompressed:compressed ratio */
  readonly maxRatio: number;
  readonly ratioFloor: number;
  /** most entries in one archive */
  readonly maxEntries: number;
  /** tar.gz: how many decompressed member bytes to keep in memory (see open-tar-gz-archive.ts); 64 MiB keeps a command's memory bounded (a member is copied once as it is kept) */
  readonly maxBufferedBytes: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntryBytes: 4 * 1024 ** 3,
  maxTotalBytes: 16 * 1024 ** 3,
  maxRatio: 200,
  ratioFloor: 1024 * 1024,
  maxEntries: 1_000_000,
  maxBufferedBytes: 64 * 1024 * 1024,
};

export function resolveArchiveLimits(limits: Partial<ArchiveLimits> | undefined): ArchiveLimits {
  return { ...DEFAULT_ARCHIVE_LIMITS, ...(limits ?? {}) };
}
