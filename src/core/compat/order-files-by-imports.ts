/**
 * Orders descriptor files so that each comes after its imports, ties broken by the smallest name in
 * UTF-16 code-unit order (the serializer's Kahn ordering).
 */
import type { FileDescriptorProto } from '@bufbuild/protobuf/wkt';

export function orderFilesByImports(files: readonly FileDescriptorProto[]): FileDescriptorProto[] {
  const byName = new Map(files.map((f) => [f.name, f]));
  const pending = new Map(files.map((f) => [f.name, new Set(f.dependency.filter((d) => byName.has(d)))]));
  const out: FileDescriptorProto[] = [];
  const emitted = new Set<string>();
  while (pending.size > 0) {
    let next: string | undefined;
    for (const [name, deps] of pending) {
      if ([...deps].every((d) => emitted.has(d)) && (next === undefined || name < next)) next = name;
    }
    if (next === undefined) throw new Error('Cyclic descriptor file imports');
    out.push(byName.get(next)!);
    emitted.add(next);
    pending.delete(next);
  }
  return out;
}
