import type { ByteSource } from './byte-source';

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
  /** warnings found while locating `_metadata` (several candidates, files outside its folder, …) */
  readonly warnings: readonly string[];
}
