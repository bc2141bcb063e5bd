/**
 * Writes a ProtobufTypeSerializerSnapshot version 1 exactly as the serializer does: Flink's
 * envelope (class name, version 1), then framing and normalization versions, the two names, the
 * settings, the normalized descriptor set (the root's import closure, source info dropped,
 * dependency-first order) and its SHA-256. Every check runs before the first byte is written.
 */
import { encodeModifiedUtf8, type ByteWriter } from '../io';
import { computeSha256 } from './compute-sha256';
import { FILE, FILE_SET, getTreeMessages, getTreeString, getTreeStrings, MESSAGE } from './descriptor-tree';
import { normalizeDescriptorSet } from './normalize-descriptor-set';
import { parseDescriptorSet } from './parse-descriptor-set';
import {
  MAX_DESCRIPTOR_BYTES,
  PROTOBUF_FRAMING_VERSION,
  PROTOBUF_NORMALIZATION_VERSION,
  PROTOBUF_SNAPSHOT_CLASS,
  PROTOBUF_SNAPSHOT_VERSION,
  type ProtobufSettings,
} from './protobuf-constants';
import { createProtobufError, DescriptorSchemaError } from './protobuf-errors';
import type { PbMessage } from './protobuf-message-types';

export interface ProtobufSnapshotInput {
  javaClass: string;
  rootFullName: string;
  settings: ProtobufSettings;
  /** a FileDescriptorSet (bytes or decoded) that contains the root's file and its imports */
  descriptorSet: Uint8Array | PbMessage;
}

/** The normalized descriptor bytes the snapshot embeds for `rootFullName`. */
export function normalizeSnapshotDescriptors(descriptorSet: Uint8Array | PbMessage, rootFullName: string): Uint8Array {
  const set = descriptorSet instanceof Uint8Array ? parseDescriptorSet(descriptorSet) : descriptorSet;
  return normalizeDescriptorSet(selectRootClosure(set, rootFullName), rootFullName).bytes;
}

/** Writes the versioned snapshot (envelope + payload). */
export function writeProtobufSnapshot(w: ByteWriter, input: ProtobufSnapshotInput): void {
  if (input.javaClass === '') throw createProtobufError('Empty Java binary class name');
  if (input.rootFullName === '') throw createProtobufError('Empty Protobuf message full name');
  let descriptorBytes: Uint8Array;
  try {
    descriptorBytes = normalizeSnapshotDescriptors(input.descriptorSet, input.rootFullName);
  } catch (e) {
    if (e instanceof DescriptorSchemaError) throw createProtobufError(e.message, {}, e);
    throw e;
  }
  writeProtobufSnapshotParts(w, input.javaClass, input.rootFullName, input.settings, descriptorBytes);
}

/** Writes envelope + payload from already normalized descriptor bytes (all checks first). */
export function writeProtobufSnapshotParts(
  w: ByteWriter,
  javaClass: string,
  rootFullName: string,
  settings: ProtobufSettings,
  descriptorBytes: Uint8Array,
): void {
  if (javaClass === '') throw createProtobufError('Empty Java binary class name');
  if (rootFullName === '') throw createProtobufError('Empty Protobuf message full name');
  const classBytes = encodeModifiedUtf8(javaClass);
  if (classBytes.length > 0xffff) throw createProtobufError("Java binary class name exceeds writeUTF's 65535-byte limit");
  const nameBytes = encodeModifiedUtf8(rootFullName);
  if (nameBytes.length > 0xffff) throw createProtobufError("Protobuf message full name exceeds writeUTF's 65535-byte limit");
  if (!(settings.maxMessageSize > 0)) throw createProtobufError(`maxMessageSize must be positive: ${settings.maxMessageSize}`);
  if (!(settings.recursionLimit > 0)) throw createProtobufError(`recursionLimit must be positive: ${settings.recursionLimit}`);
  const length = descriptorBytes.length;
  if (length < 1 || length > MAX_DESCRIPTOR_BYTES) {
    throw createProtobufError(`Invalid descriptor byte length: ${length}; maximum is ${MAX_DESCRIPTOR_BYTES}`);
  }
  w.utf(PROTOBUF_SNAPSHOT_CLASS).i32(PROTOBUF_SNAPSHOT_VERSION);
  w.i32(PROTOBUF_FRAMING_VERSION).i32(PROTOBUF_NORMALIZATION_VERSION);
  w.u16(classBytes.length).bytes(classBytes);
  w.u16(nameBytes.length).bytes(nameBytes);
  w.u8(settings.deterministic ? 1 : 0)
    .i32(settings.maxMessageSize)
    .i32(settings.recursionLimit);
  w.i32(length).bytes(descriptorBytes).bytes(computeSha256(descriptorBytes));
}

/** Keeps only the file declaring `rootFullName` and its transitive imports. */
function selectRootClosure(set: PbMessage, rootFullName: string): PbMessage {
  const files = getTreeMessages(set, FILE_SET.file);
  const byName = new Map(files.map((f) => [getTreeString(f, FILE.name) ?? '', f]));
  const rootFile = files.find((f) => declaresMessage(f, rootFullName));
  if (rootFile === undefined) throw new DescriptorSchemaError(`Missing root message: ${rootFullName}`);
  const keep = new Set<string>();
  const pending = [getTreeString(rootFile, FILE.name) ?? ''];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (keep.has(name)) continue;
    keep.add(name);
    const file = byName.get(name);
    if (file === undefined) continue;
    for (const dependency of getTreeStrings(file, FILE.dependency)) pending.push(dependency);
  }
  const fv = set.fields.get(FILE_SET.file);
  if (fv?.kind !== 'list') return set;
  const out: PbMessage = { ...set, fields: new Map(set.fields) };
  out.fields.set(FILE_SET.file, { ...fv, values: files.filter((f) => keep.has(getTreeString(f, FILE.name) ?? '')) });
  return out;
}

function declaresMessage(file: PbMessage, fullName: string): boolean {
  const pkg = getTreeString(file, FILE.package) ?? '';
  const visit = (messages: PbMessage[], scope: string): boolean =>
    messages.some((m) => {
      const name = `${scope}${getTreeString(m, MESSAGE.name) ?? ''}`;
      return name === fullName || visit(getTreeMessages(m, MESSAGE.nestedType), `${name}.`);
    });
  return visit(getTreeMessages(file, FILE.messageType), pkg === '' ? '' : `${pkg}.`);
}
