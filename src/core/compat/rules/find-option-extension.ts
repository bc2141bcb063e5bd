/**
 * Finds the declaration of a custom option (an extension of a `google.protobuf.*Options` message) in the
 * descriptor sets being compared, so option changes can be named `(validate.rules).string.min_len`
 * instead of `#1071`. A side's own set is asked first, then the other side's. The sets' registries are
 * built only when an unknown field of an options message is described (most comparisons have none),
 * once per set; a set whose files do not resolve (an import missing) has no registry, and its options
 * stay numbered.
 */
import { createFileRegistry, type DescExtension, type FileRegistry } from '@bufbuild/protobuf';
import type { FileDescriptorSet } from '@bufbuild/protobuf/wkt';

/** The extension of `extendee` (full name, no leading dot) with field number `number`, if a set declares it. */
export type OptionExtensionFinder = (extendee: string, number: number) => DescExtension | undefined;

const registries = new WeakMap<FileDescriptorSet, FileRegistry | null>();

export function createOptionExtensionFinder(own: FileDescriptorSet, other?: FileDescriptorSet): OptionExtensionFinder {
  const sets = other === undefined || other === own ? [own] : [own, other];
  return (extendee, number) => {
    for (const set of sets) {
      if (!declaresExtension(set, extendee, number)) continue;
      const registry = registryOf(set);
      if (registry === null) continue;
      const message = registry.getMessage(extendee);
      const found = message ? registry.getExtensionFor(message, number) : undefined;
      if (found) return found;
    }
    return undefined;
  };
}

function registryOf(set: FileDescriptorSet): FileRegistry | null {
  let registry = registries.get(set);
  if (registry === undefined) {
    try {
      registry = createFileRegistry(set);
    } catch {
      registry = null; // unresolved imports or invalid names: the options stay numbered
    }
    registries.set(set, registry);
  }
  return registry;
}

const declared = new WeakMap<FileDescriptorSet, ReadonlySet<string>>();

/** `extendee#number` of every extension the set declares (cheap, and spares the registry when none matches). */
function declaresExtension(set: FileDescriptorSet, extendee: string, number: number): boolean {
  let keys = declared.get(set);
  if (keys === undefined) {
    const out = new Set<string>();
    const add = (fields: readonly { extendee: string; number: number }[]): void => {
      for (const f of fields) out.add(`${f.extendee.replace(/^\./, '')}#${f.number}`);
    };
    type Nested = { extension: { extendee: string; number: number }[]; nestedType: Nested[] };
    const visit = (m: Nested): void => {
      add(m.extension);
      for (const n of m.nestedType) visit(n);
    };
    for (const file of set.file) {
      add(file.extension);
      for (const m of file.messageType) visit(m);
    }
    keys = out;
    declared.set(set, keys);
  }
  return keys.has(`${extendee}#${number}`);
}
