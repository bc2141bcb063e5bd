import type { ByteSource } from './byte-source';
import { DecodeError } from './decode-error';
import { detectInputKind, type DetectedInput } from './detect-input-kind';
import type { ArchiveLimits, ArchiveListing, InputFile, SkippedEntry } from './input-file';
import { locateSavepoint } from './locate-savepoint';
import { baseNameOf } from './normalize-entry-path';
import { openTarArchive } from './open-tar-archive';
import { openTarGzArchive } from './open-tar-gz-archive';
import { openZipArchive } from './open-zip-archive';
import type { SavepointFiles } from './savepoint-files';
import { formatHex } from './format-hex';

/** What a user can hand over: one file (archive or `_metadata`), or the files of a folder/drop. */
export type SavepointInput =
  | { kind: 'source'; source: ByteSource }
  /** skipped: entries of a folder walk that are not regular files (told apart in messages) */
  | { kind: 'files'; name: string; files: readonly InputFile[]; skipped?: readonly SkippedEntry[] };

export interface OpenSavepointInputOptions {
  readonly limits?: Partial<ArchiveLimits>;
  /** which `_metadata` of an input holding several to read: its path inside the folder or archive (or that of its folder) */
  readonly metadataPath?: string;
}

/**
 * The one entry point for opening a savepoint: detects zip / tar / tar.gz / a lone `_metadata` by
 * magic bytes (not by file name), lists archives by random access, locates `_metadata` and returns
 * the SavepointFiles. Wrong inputs get specific messages (a descriptor set, a state file, SST…).
 */
export async function openSavepointInput(input: SavepointInput, options: OpenSavepointInputOptions = {}): Promise<SavepointFiles> {
  if (input.kind === 'source') return openSingleSource(input.source, options);
  const hasMetadata = input.files.some((f) => baseNameOf(f.path) === '_metadata');
  if (!hasMetadata) {
    if (input.files.length === 1 && (input.skipped ?? []).length === 0) return openSingleSource(input.files[0]!.source, options);
    const archives: InputFile[] = [];
    for (const f of input.files) if (isArchive((await detectInputKind(f.source)).kind)) archives.push(f);
    if (archives.length === 1) {
      const files = await openSingleSource(archives[0]!.source, options);
      return {
        ...files,
        warnings: [`using the archive '${archives[0]!.path}'; the ${input.files.length - 1} other dropped file(s) are ignored`, ...files.warnings],
      };
    }
  }
  return locateSavepoint(input.name, input.files, [], input.skipped, options.metadataPath);
}

async function openSingleSource(source: ByteSource, options: OpenSavepointInputOptions): Promise<SavepointFiles> {
  const detected = await detectInputKind(source);
  let listing: ArchiveListing;
  switch (detected.kind) {
    case 'flink-metadata':
      return { name: source.name, metadata: source, files: [source], resolveRelative: () => undefined, warnings: [] };
    case 'zip':
      listing = await openZipArchive(source, options.limits);
      break;
    case 'tar':
      listing = await openTarArchive(source, options.limits);
      break;
    case 'gzip':
      listing = await openTarGzArchive(source, options.limits);
      break;
    default:
      throw describeUnusableFile(source, detected, await firstBytesHex(source));
  }
  return locateSavepoint(source.name, listing.files, listing.warnings, [], options.metadataPath);
}

function isArchive(kind: DetectedInput['kind']): boolean {
  return kind === 'zip' || kind === 'tar' || kind === 'gzip';
}

const EXPECTED = 'expected a savepoint folder, its _metadata file, or a .zip/.tar/.tar.gz of the folder';

async function firstBytesHex(source: ByteSource): Promise<string> {
  const head = await source.read(0, Math.min(8, source.size));
  return formatHex(head, ' ');
}

/** A single file that is not a savepoint: one that is recognised as another kind is told apart from one that is not recognised at all. */
function describeUnusableFile(source: ByteSource, detected: DetectedInput, hex: string): DecodeError {
  const file = source.name;
  switch (detected.kind) {
    case 'protobuf-descriptor-set':
      return new DecodeError({
        code: 'wrong-file-kind',
        file,
        offset: 0,
        detail: `This looks like a Protobuf descriptor set, not a savepoint: give it as the new schema, and as the savepoint ${EXPECTED.slice(9)}`,
      });
    case 'protobuf-source':
      return new DecodeError({
        code: 'wrong-file-kind',
        file,
        offset: 0,
        detail: `This looks like a .proto source file, not a savepoint: compile it to a descriptor set (buf build -o schema.binpb) for the new schema; ${EXPECTED}`,
      });
    case 'flink-state-file':
      return new DecodeError({
        code: 'wrong-file-kind',
        file,
        offset: 0,
        detail: `This looks like a Flink state file, not the savepoint's _metadata: ${EXPECTED}`,
      });
    case 'rocksdb-sst':
      return new DecodeError({
        code: 'wrong-file-kind',
        file,
        offset: 0,
        detail: `This looks like a RocksDB SST file (native RocksDB state), not a savepoint: ${EXPECTED}`,
      });
    case 'empty':
      return new DecodeError({ code: 'not-recognised', file, offset: 0, detail: `${EXPECTED}, found an empty file` });
    case 'unknown':
      return new DecodeError({ code: 'not-recognised', file, offset: 0, detail: `${EXPECTED}, found an unrecognised file starting with ${hex}` });
    default:
      return new DecodeError({ code: 'wrong-file-kind', file, offset: 0, detail: `This looks like ${detected.label}, not a savepoint: ${EXPECTED}` });
  }
}
