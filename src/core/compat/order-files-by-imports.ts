/**
 * Orders descriptor files so that each comes after its imports, ties broken by the smallest name in
 * UTF-16 code-unit order (the serializer's Kahn ordering when it normalizes a descriptor set). Files that
 * import each other in a cycle cannot be ordered: an `invalid-value` DecodeError naming the cycle
 * (the caller adds the file and location).
 */
import type { FileDescriptorProto } from '@bufbuild/protobuf/wkt';
import { DecodeError } from '../io';

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
    if (next === undefined) throw new DecodeError({ code: 'invalid-value', detail: `Cyclic descriptor file imports: ${findCycle(pending, emitted).join(' → ')}` });
    out.push(byName.get(next)!);
    emitted.add(next);
    pending.delete(next);
  }
  return out;
}

/** Every file left has an import not yet ordered; following the smallest such import from the smallest file must come back to a file already seen. */
function findCycle(pending: ReadonlyMap<string, ReadonlySet<string>>, emitted: ReadonlySet<string>): string[] {
  const smallest = (names: Iterable<string>): string => [...names].reduce((a, b) => (b < a ? b : a));
  const path: string[] = [smallest(pending.keys())];
  for (;;) {
    const next = smallest([...pending.get(path.at(-1)!)!].filter((d) => !emitted.has(d)));
    const seen = path.indexOf(next);
    if (seen >= 0) return [...path.slice(seen), next];
    path.push(next);
  }
}
