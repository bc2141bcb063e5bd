/**
 * ProtobufSchema.normalize(FileDescriptorSet, fullName) of the serializer: per file drop only source_code_info, deduplicate by name, check weak indexes,
 * order dependency-first with the lexically smallest ready file next, build the descriptors,
 * find the root by full name, and require the set to be exactly the root's import closure.
 * Failures throw DescriptorSchemaError whose message is the serializer's inner text.
 */
import type { DescMessage, FileRegistry } from '@bufbuild/protobuf';
import { haveSameBytes } from '../io';
import { buildDescriptorRegistry } from './build-descriptor-registry';
import { copyTreeMessage, FILE, FILE_SET, getTreeMessages, getTreeNumbers, getTreeString, getTreeStrings } from './descriptor-tree';
import { encodeProtobufMessage } from './encode-protobuf-message';
import type { PbMessage } from './protobuf-message-types';
import { DescriptorSchemaError } from './protobuf-errors';

export interface NormalizedDescriptorSet {
  /** the normalized FileDescriptorSet (files ordered, source info dropped, set-level unknown fields kept) */
  set: PbMessage;
  /** protobuf-java's serialization of `set` (what the snapshot embeds), encoded on first read */
  readonly bytes: Uint8Array;
  fileNames: string[];
  registry: FileRegistry;
  root: DescMessage;
}

export function normalizeDescriptorSet(set: PbMessage, rootFullName: string): NormalizedDescriptorSet {
  const byName = new Map<string, { file: PbMessage; bytes: Uint8Array }>();
  for (const original of getTreeMessages(set, FILE_SET.file)) {
    const name = getTreeString(original, FILE.name) ?? '';
    if (name === '') throw new DescriptorSchemaError('Empty descriptor file name');
    const file = copyTreeMessage(original);
    file.fields.delete(FILE.sourceCodeInfo);
    const bytes = encodeProtobufMessage(file);
    const seen = byName.get(name);
    if (seen !== undefined) {
      if (!haveSameBytes(seen.bytes, bytes)) throw new DescriptorSchemaError(`Conflicting descriptor file: ${name}`);
      continue;
    }
    const depCount = getTreeStrings(file, FILE.dependency).length;
    for (const index of getTreeNumbers(file, FILE.weakDependency)) {
      if (index < 0 || index >= depCount) throw new DescriptorSchemaError(`Invalid weak dependency index: ${name}`);
    }
    byName.set(name, { file, bytes });
  }
  const order = orderDescriptorFiles(new Map([...byName].map(([name, v]) => [name, getTreeStrings(v.file, FILE.dependency)])));
  const ordered = order.map((name) => byName.get(name)!.file);
  const normalized: PbMessage = {
    kind: 'message',
    desc: set.desc,
    fields: new Map(),
    unknown: set.unknown,
  };
  const fileField = set.desc.fields.find((f) => f.number === FILE_SET.file)!;
  if (ordered.length > 0) normalized.fields.set(FILE_SET.file, { kind: 'list', field: fileField, values: ordered, ranges: [] });
  const registry = buildDescriptorRegistry(order.map((name) => byName.get(name)!.bytes));
  const root = findRootMessage(registry, order, rootFullName);
  const closure = new Set<string>();
  const pending = [root.file.proto.name];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (closure.has(name)) continue;
    closure.add(name);
    for (const dependency of getTreeStrings(byName.get(name)!.file, FILE.dependency)) pending.push(dependency);
  }
  if (closure.size !== byName.size) throw new DescriptorSchemaError('Descriptor set contains files outside the root import closure');
  // `bytes` (only the snapshot writer needs them) is encoded on first use: a reader of a saved snapshot never does
  let bytes: Uint8Array | undefined;
  return {
    set: normalized,
    get bytes(): Uint8Array {
      return (bytes ??= encodeProtobufMessage(normalized));
    },
    fileNames: order,
    registry,
    root,
  };
}

/** Kahn's algorithm; among ready files the smallest name (UTF-16 order) is emitted next. */
export function orderDescriptorFiles(dependencies: ReadonlyMap<string, readonly string[]>): string[] {
  const deps = new Map<string, string[]>();
  for (const [name, list] of dependencies) {
    const unique = [...new Set(list)];
    for (const dep of unique) {
      if (!dependencies.has(dep)) throw new DescriptorSchemaError(`Unresolved descriptor import: ${name} -> ${dep}`);
    }
    deps.set(name, unique);
  }
  const emitted = new Set<string>();
  const out: string[] = [];
  while (out.length < deps.size) {
    let next: string | undefined;
    for (const [name, list] of deps) {
      if (emitted.has(name) || !list.every((d) => emitted.has(d))) continue;
      if (next === undefined || name < next) next = name;
    }
    if (next === undefined) throw new DescriptorSchemaError('Cyclic descriptor file imports');
    emitted.add(next);
    out.push(next);
  }
  return out;
}

function findRootMessage(registry: FileRegistry, order: readonly string[], fullName: string): DescMessage {
  const matches: DescMessage[] = [];
  for (const name of order) {
    const file = registry.getFile(name);
    if (file === undefined) continue;
    const queue: DescMessage[] = [...file.messages];
    for (let i = 0; i < queue.length; i++) {
      const m = queue[i]!;
      if (m.typeName === fullName) matches.push(m);
      for (const nested of m.nestedMessages) queue.push(nested);
    }
  }
  if (matches.length > 1) throw new DescriptorSchemaError(`Ambiguous root message: ${fullName}`);
  if (matches.length === 0) throw new DescriptorSchemaError(`Missing root message: ${fullName}`);
  return matches[0]!;
}
