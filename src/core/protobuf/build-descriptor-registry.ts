/**
 * Builds real descriptors from normalized, ordered file bytes.
 * Checks that protobuf-java's FileDescriptor.buildFrom makes and @bufbuild/protobuf does not
 * (public dependency indexes, fully-qualified type names that are missing or not imported) come
 * first, with protobuf-java's wording; any other failure of createFileRegistry is reported with
 * its own text. All become `Invalid descriptor graph: <detail>`.
 */
import { create, createFileRegistry, fromBinary, type FileRegistry } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema, FileDescriptorSetSchema, type DescriptorProto, type FileDescriptorProto } from '@bufbuild/protobuf/wkt';
import { DescriptorSchemaError } from './protobuf-errors';

export function buildDescriptorRegistry(orderedFileBytes: readonly Uint8Array[]): FileRegistry {
  // depth was already limited by parseDescriptorSet (101); do not apply a second, lower limit here
  const files = orderedFileBytes.map((b) => {
    try {
      return fromBinary(FileDescriptorProtoSchema, b, { recursionLimit: 10_000 });
    } catch (e) {
      // bytes protobuf-java's rules accepted (e.g. a known field number with a foreign wire type) can still fail here
      throw new DescriptorSchemaError(`Invalid descriptor graph: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  checkDescriptorGraph(files);
  try {
    return createFileRegistry(create(FileDescriptorSetSchema, { file: files }));
  } catch (e) {
    throw new DescriptorSchemaError(`Invalid descriptor graph: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function checkDescriptorGraph(files: readonly FileDescriptorProto[]): void {
  const definedIn = new Map<string, string>();
  for (const file of files) {
    const prefix = file.package === '' ? '' : `${file.package}.`;
    const addMessages = (messages: readonly DescriptorProto[], scope: string): void => {
      for (const m of messages) {
        definedIn.set(`${scope}${m.name}`, file.name);
        for (const e of m.enumType) definedIn.set(`${scope}${m.name}.${e.name}`, file.name);
        addMessages(m.nestedType, `${scope}${m.name}.`);
      }
    };
    for (const e of file.enumType) definedIn.set(`${prefix}${e.name}`, file.name);
    addMessages(file.messageType, prefix);
  }
  const byName = new Map(files.map((f) => [f.name, f]));
  for (const file of files) {
    for (const index of file.publicDependency) {
      if (index < 0 || index >= file.dependency.length) {
        throw new DescriptorSchemaError(`Invalid descriptor graph: ${file.name}: Invalid public dependency index.`);
      }
    }
    const visible = collectVisibleFiles(file, byName);
    const checkMessages = (messages: readonly DescriptorProto[], scope: string): void => {
      for (const m of messages) {
        for (const field of [...m.field, ...m.extension]) {
          const typeName = field.typeName;
          if (!typeName.startsWith('.')) continue;
          const where = definedIn.get(typeName.slice(1));
          const fullName = `${scope}${m.name}.${field.name}`;
          if (where === undefined) throw new DescriptorSchemaError(`Invalid descriptor graph: ${fullName}: "${typeName}" is not defined.`);
          if (!visible.has(where)) {
            throw new DescriptorSchemaError(
              `Invalid descriptor graph: ${fullName}: "${typeName}" seems to be defined in "${where}", which is not imported by "${file.name}".  To use it here, please add the necessary import.`,
            );
          }
        }
        checkMessages(m.nestedType, `${scope}${m.name}.`);
      }
    };
    checkMessages(file.messageType, file.package === '' ? '' : `${file.package}.`);
  }
}

/** The file itself, its imports, and (transitively) the public imports of those. */
function collectVisibleFiles(file: FileDescriptorProto, byName: ReadonlyMap<string, FileDescriptorProto>): Set<string> {
  const visible = new Set<string>([file.name]);
  const pending = [...file.dependency];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (visible.has(name)) continue;
    visible.add(name);
    const dep = byName.get(name);
    if (dep !== undefined) for (const i of dep.publicDependency) if (dep.dependency[i] !== undefined) pending.push(dep.dependency[i]!);
  }
  return visible;
}
