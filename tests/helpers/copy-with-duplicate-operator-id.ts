import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Copies the savepoint folder `source` to `target` with the 16 id bytes of operator `id` written over
 * those of operator `overwritten` in `_metadata`, so `_metadata` lists `id` twice. Each id must occur
 * exactly once in the original. Returns which of the two operators is listed first and which last:
 * the last one is what every read of `id` then finds (Flink loads the operators into a map of ids).
 */
export async function copyWithDuplicateOperatorId(
  source: string,
  target: string,
  id: string,
  overwritten: string,
): Promise<{ listedFirst: string; listedLast: string }> {
  await cp(source, target, { recursive: true });
  const metadata = new Uint8Array(await readFile(path.join(target, '_metadata')));
  const offsetOf = (hex: string): number => {
    const bytes = Uint8Array.from(hex.match(/../g)!, (h) => parseInt(h, 16));
    const at: number[] = [];
    for (let i = 0; i + 16 <= metadata.length; i++) if (bytes.every((b, j) => metadata[i + j] === b)) at.push(i);
    if (at.length !== 1) throw new Error(`expected operator id ${hex} once in ${source}/_metadata, found it ${at.length} times`);
    return at[0]!;
  };
  const from = offsetOf(id);
  const onto = offsetOf(overwritten);
  metadata.set(metadata.slice(from, from + 16), onto);
  await writeFile(path.join(target, '_metadata'), metadata);
  return { listedFirst: onto < from ? overwritten : id, listedLast: onto < from ? id : overwritten };
}
