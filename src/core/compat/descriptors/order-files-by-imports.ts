/**
 * Orders descriptor files so that each comes after its imports, ties broken by the smallest name in
 * UTF-16 code-unit order (the serializer's Kahn ordering when it normalizes a descriptor set). Files that
 * import each other in a cycle cannot be ordered: an `invalid-value` DecodeError naming the cycle
 * (the caller adds the file and location).
 */
import type { FileDescriptorProto } from '@bufbuild/protobuf/wkt';
import { DecodeError } from '../../io';

export function orderFilesByImports<T extends Pick<FileDescriptorProto, 'name' | 'dependency'>>(files: readonly T[]): T[] {
  // Kahn's algorithm with the ready files in a min-heap by name: O((files + imports) · log files)
  // (a scan of every pending file per step took 12 s for 5,000 files and minutes for 50,000)
  const byName = new Map(files.map((f) => [f.name, f]));
  const waiting = new Map<string, number>();
  const importers = new Map<string, string[]>();
  for (const f of byName.values()) {
    const deps = new Set(f.dependency.filter((d) => byName.has(d)));
    waiting.set(f.name, deps.size);
    for (const d of deps) {
      const list = importers.get(d);
      if (list) list.push(f.name);
      else importers.set(d, [f.name]);
    }
  }
  const ready = new NameHeap();
  for (const [name, n] of waiting) if (n === 0) ready.push(name);
  const out: T[] = [];
  const emitted = new Set<string>();
  for (let next = ready.pop(); next !== undefined; next = ready.pop()) {
    out.push(byName.get(next)!);
    emitted.add(next);
    for (const importer of importers.get(next) ?? []) {
      const left = waiting.get(importer)! - 1;
      waiting.set(importer, left);
      if (left === 0) ready.push(importer);
    }
  }
  if (out.length < byName.size) {
    const pending = new Map<string, Set<string>>();
    for (const f of byName.values()) if (!emitted.has(f.name)) pending.set(f.name, new Set(f.dependency.filter((d) => byName.has(d))));
    throw new DecodeError({ code: 'invalid-value', detail: `Cyclic descriptor file imports: ${findCycle(pending, emitted).join(' → ')}` });
  }
  return out;
}

/** A binary min-heap of file names in UTF-16 code-unit order (JavaScript's `<` on strings). */
class NameHeap {
  private readonly items: string[] = [];

  push(name: string): void {
    const a = this.items;
    a.push(name);
    for (let i = a.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (a[parent]! <= a[i]!) break;
      [a[parent], a[i]] = [a[i]!, a[parent]!];
      i = parent;
    }
  }

  pop(): string | undefined {
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l]! < a[m]!) m = l;
        if (r < a.length && a[r]! < a[m]!) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i]!, a[m]!];
        i = m;
      }
    }
    return top;
  }
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
