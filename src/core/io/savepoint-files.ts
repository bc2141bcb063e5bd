import type { ByteSource } from './byte-source';
import { DecodeError } from './decode-error';

/**
 * The largest `_metadata` this inspector reads. `_metadata` is read and decoded whole (every other
 * file is read by range), so its size bounds the memory of every command: some hold it twice
 * while they scan, and 128 MiB keeps them under 512 MiB. Flink's own `_metadata` files are
 * kilobytes to a few megabytes: state lives in the files next to it, and only state handles
 * smaller than `state.storage.fs.memory-threshold` (20 KiB by default, at most 1 MiB) are inlined,
 * so reaching 128 MiB takes thousands of full inline handles.
 */
export const MAX_METADATA_BYTES = 128 * 1024 * 1024;

/** Refuses a `_metadata` source above MAX_METADATA_BYTES before any of it is read. */
export function checkMetadataSize(source: ByteSource, name = source.name): void {
  if (source.size > MAX_METADATA_BYTES) {
    throw new DecodeError({
      code: 'limit-exceeded',
      file: name,
      offset: 0,
      detail: `expected a _metadata file of at most ${MAX_METADATA_BYTES} bytes (128 MiB: it is decoded whole in memory; Flink's are kilobytes to a few megabytes), found ${source.size} bytes`,
    });
  }
}

/**
 * A savepoint as input: its `_metadata` and the files next to it, whatever container they came
 * in (a folder, a zip, a tar/tar.gz, a lone `_metadata`, an HTTP folder). Relative state handles
 * resolve against the folder that holds `_metadata`.
 */
export interface SavepointFiles {
  /** display name of the input: folder, archive or file name */
  readonly name: string;
  readonly metadata: ByteSource;
  /** all files of the input that sit in the `_metadata` folder or below, for listings and sizes */
  readonly files: readonly ByteSource[];
  /** the file at `relativePath` from the `_metadata` folder, or undefined when absent */
  resolveRelative(relativePath: string): ByteSource | undefined;
  /**
   * The input file an absolute handle path names, anywhere in the input (Flink's checkpoint layout:
   * `chk-N/_metadata` with `shared/` and `taskowned/` beside it): the file whose path ends with the most
   * trailing segments of `absolutePath`, at least its folder and name; undefined when none does.
   * `recordedSize`: the bytes the handle says the file holds at least (its size; a segment's end), for a
   * reader that opens the path where it points without asking its size first (the CLI's object stores and
   * `--path-map`).
   */
  resolveAbsolute?(absolutePath: string, recordedSize?: number): { source: ByteSource; path: string } | undefined;
  /** entries next to `_metadata` that are not regular files, by relative path: what each is (a FIFO, a link to a device, …) */
  readonly unreadable?: ReadonlyMap<string, string>;
  /** warnings found while locating `_metadata` (several candidates, files outside its folder, …) */
  readonly warnings: readonly string[];
}

/** What stands where a state file should be: nothing (the savepoint is incomplete), or an entry that is not a regular file. */
export function describeAbsentFile(files: SavepointFiles, fileName: string): string {
  const what = files.unreadable?.get(fileName);
  return what === undefined ? 'no such file: the savepoint is incomplete (copy the whole folder)' : `${what}, not a regular file`;
}
