/**
 * Loads the new application's schema: a binary google.protobuf.FileDescriptorSet as written by
 * `protoc --include_imports --descriptor_set_out` or `buf build -o x.binpb` (with or without source
 * info and imports; source info is not decoded). Not-a-descriptor-set, corrupt set, missing import and unresolvable types are
 * told apart, each as a DecodeError.
 */
import { create, createFileRegistry, fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema, FileDescriptorSetSchema, type FileDescriptorProto, type FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import { DecodeError, readVarintAt, varintCursor, formatHex, haveSameBytes } from '../../io';
import { countDeclaredMembers, isProtobufParseError, MAX_DECLARED_MEMBERS, parseDescriptorSet } from '../../protobuf';
import { dropSourceCodeInfo } from './drop-source-code-info';
import { isRegistrySafe } from './is-registry-safe';
import { orderFilesByImports } from './order-files-by-imports';
import { validateDescriptorSet } from './validate-descriptor-set';

export interface LoadedDescriptorSet {
  /** the set as decoded, without source_code_info (which the comparison drops anyway) */
  set: FileDescriptorSet;
}

const LENGTH_DELIMITED_FILE_TAG = 0x0a; // field 1 (file), wire type 2

/**
 * Files decoded by earlier loads, by their bytes: a second set of the same schema history (`compare`'s
 * old and new images) takes each unchanged file from the first instead of decoding it again, and the
 * two sets then share the very objects, which every comparison of them answers at once.
 */
export interface DescriptorFileCache {
  byLength: Map<number, { bytes: Uint8Array; proto: FileDescriptorProto }[]>;
}

export function createDescriptorFileCache(): DescriptorFileCache {
  return { byLength: new Map() };
}

export function loadDescriptorSet(bytes: Uint8Array, fileName: string, shared?: DescriptorFileCache): LoadedDescriptorSet {
  const fail = (code: 'not-recognised' | 'invalid-value' | 'protobuf' | 'limit-exceeded', detail: string, offset?: number): never => {
    throw new DecodeError({ code, detail, file: fileName, ...(offset === undefined ? {} : { offset }), path: ['descriptor set'] });
  };
  if (bytes.length === 0) fail('not-recognised', 'Expected a binary FileDescriptorSet, found an empty file', 0);
  if (bytes[0] !== LENGTH_DELIMITED_FILE_TAG) {
    fail('not-recognised', `Expected a binary FileDescriptorSet (first byte 0x0a), found ${describeStart(bytes)}`, 0);
  }
  // source info is dropped before counting and decoding: nothing reads it, and it is most of an image's bytes
  const decoded = dropSourceCodeInfo(bytes);
  // one walk over the top-level entries of each byte array that needs it (the same one when nothing was dropped):
  // the decoded bytes' for decoding file by file, the input's for the offsets in messages (only on failure)
  let decodedEntries: SetEntries | undefined;
  const entriesOf = (b: Uint8Array): SetEntries => (b === decoded ? (decodedEntries ??= listSetEntries(decoded)) : listSetEntries(b));
  let entryOffsets: number[] | undefined;
  const offsetOf = (fileIndex: number): number => (entryOffsets ??= listFileEntryOffsets(entriesOf(bytes)))[fileIndex] ?? 0;
  if (countDeclaredMembers(decoded, MAX_DECLARED_MEMBERS) > MAX_DECLARED_MEMBERS) {
    fail(
      'limit-exceeded',
      `Expected a FileDescriptorSet declaring at most ${MAX_DECLARED_MEMBERS} fields and enum values (this inspector's cap), found more`,
      0,
    );
  }
  let set: FileDescriptorSet;
  try {
    set = (shared && decodeSharingFiles(decoded, entriesOf(decoded), shared)) ?? fromBinary(FileDescriptorSetSchema, decoded, { readUnknownFields: true });
  } catch (e) {
    return fail('invalid-value', `Recognised as a FileDescriptorSet but corrupt: ${e instanceof Error ? e.message : String(e)}`, locateCorruption(bytes));
  }
  if (set.file.length === 0) fail('invalid-value', 'The FileDescriptorSet contains no files', 0);
  const names = new Set<string>();
  for (const [i, file] of set.file.entries()) {
    if (!file.name) fail('invalid-value', `File ${i} of the FileDescriptorSet has no name`, offsetOf(i));
    if (names.has(file.name)) fail('invalid-value', `The FileDescriptorSet contains ${file.name} twice`, offsetOf(i));
    names.add(file.name);
  }
  for (const [i, file] of set.file.entries()) {
    for (const dep of file.dependency) {
      if (!names.has(dep)) fail('invalid-value', `Cannot find ${dep}, imported by ${file.name}`, offsetOf(i));
    }
  }
  const problem = validateDescriptorSet(set);
  if (problem) {
    throw new DecodeError({
      code: 'invalid-value',
      detail: `Invalid descriptor set (protoc would refuse it): ${problem.detail}`,
      file: fileName,
      offset: offsetOf(problem.fileIndex),
      path: ['descriptor set', ...problem.path],
    });
  }
  try {
    const ordered = orderFilesByImports(set.file);
    // the registry is built only to reject what it cannot resolve, with its own message; a set surely within what it resolves skips it
    if (!isRegistrySafe(ordered)) createFileRegistry({ ...set, file: ordered });
  } catch (e) {
    // a cross-file inconsistency has no single byte; the location is the set itself
    return fail('invalid-value', `Invalid descriptor set: ${describeRegistryFailure(e)}`, 0);
  }
  return { set };
}

/**
 * The set decoded file by file, each file's bytes looked up in (and added to) the cache; undefined
 * when the bytes are not a plain list of well-framed file entries or a file does not decode, so the
 * whole set is decoded as usual and fails with its usual message.
 */
function decodeSharingFiles(bytes: Uint8Array, setEntries: SetEntries, cache: DescriptorFileCache): FileDescriptorSet | undefined {
  const entries = listFileEntries(bytes, setEntries);
  if (entries === undefined) return undefined;
  const files: FileDescriptorProto[] = [];
  try {
    for (const [start, end] of entries) {
      const entry = bytes.subarray(start, end);
      const candidates = cache.byLength.get(entry.length);
      const known = candidates?.find((c) => haveSameBytes(c.bytes, entry));
      if (known) {
        files.push(known.proto);
        continue;
      }
      const proto = fromBinary(FileDescriptorProtoSchema, entry, { readUnknownFields: true });
      if (candidates) candidates.push({ bytes: entry, proto });
      else cache.byLength.set(entry.length, [{ bytes: entry, proto }]);
      files.push(proto);
    }
  } catch {
    return undefined;
  }
  const set = create(FileDescriptorSetSchema);
  set.file = files;
  return set;
}

/** A set's top-level entries: each length-delimited field in order, up to the first that is not or whose tag or length does not end within 5 bytes. */
interface SetEntries {
  entries: { start: number; tag: number; contentStart: number; end: number }[];
  /** whether the walk reached the end of the bytes (the last entry may still run past it) */
  complete: boolean;
}

function listSetEntries(bytes: Uint8Array): SetEntries {
  const entries: SetEntries['entries'] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const start = pos;
    // a file entry's tag or length: at most 5 bytes (-1 when unterminated)
    const tag = readVarintAt(bytes, pos, bytes.length, 5);
    if (tag < 0 || (tag & 7) !== 2) return { entries, complete: false };
    const length = readVarintAt(bytes, varintCursor.next, bytes.length, 5);
    if (length < 0) return { entries, complete: false };
    pos = varintCursor.next;
    entries.push({ start, tag, contentStart: pos, end: pos + length });
    pos += length;
  }
  return { entries, complete: true };
}

/** [start, end) of each file entry's content, or undefined unless the bytes are well-framed file entries (field 1) only. */
function listFileEntries(bytes: Uint8Array, { entries, complete }: SetEntries): [number, number][] | undefined {
  if (!complete) return undefined;
  const out: [number, number][] = [];
  for (const e of entries) {
    if (e.tag !== LENGTH_DELIMITED_FILE_TAG || e.end > bytes.length) return undefined;
    out.push([e.contentStart, e.end]);
  }
  return out;
}

/** The registry's reason; some of its consistency checks throw without one (e.g. a map field whose entry is not a key and a value). */
function describeRegistryFailure(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message !== ''
    ? message
    : '@bufbuild/protobuf could not build its descriptors and gave no reason (a map entry message that is not exactly a scalar key 1 and a singular value 2 is one cause)';
}

/** Where the set stops parsing under protobuf-java's rules (0 when only @bufbuild's reader objects). */
function locateCorruption(bytes: Uint8Array): number {
  try {
    parseDescriptorSet(bytes);
  } catch (e) {
    if (isProtobufParseError(e)) return e.offset;
  }
  return 0;
}

/** Byte offset of each top-level `file` entry (field 1), in order, for locating per-file problems. */
function listFileEntryOffsets({ entries }: SetEntries): number[] {
  return entries.filter((e) => e.tag >>> 3 === 1).map((e) => e.start);
}

function describeStart(bytes: Uint8Array): string {
  const head = formatHex(bytes.subarray(0, 8), ' ');
  const text = String.fromCharCode(...bytes.subarray(0, 64));
  if (/^\s*(syntax|edition|package|import|message|\/\/|\/\*)/.test(text)) return `Protobuf source text (compile it with buf build -o x.binpb): ${head}`;
  if (/^\s*[{[]/.test(text)) return `JSON text: ${head}`;
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return `a zip archive: ${head}`;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return `a gzip file: ${head}`;
  return `bytes ${head}`;
}
