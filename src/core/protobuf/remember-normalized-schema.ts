/**
 * A small bounded cache (8 schemas, 16 MiB of descriptor bytes) of normalized snapshot schemas, keyed by the descriptor bytes' SHA-256 and the
 * root's full name. A savepoint usually stores the same Protobuf snapshot in many states (and the
 * app and `check` read the same headers more than once), and normalizing a large set (parse, encode,
 * build the descriptor registry) costs far more than hashing it. Only successful normalizations are
 * remembered, so a failing snapshot still fails at every read with its own error; the cached value
 * is a pure function of (bytes, root), so a hit answers exactly what a new normalization would.
 */
import type { NormalizedDescriptorSet } from './normalize-descriptor-set';

const CAPACITY = 8;
/** and at most this many descriptor bytes together (a schema alone larger than this is not remembered) */
const BYTE_BUDGET = 16 * 1024 * 1024;
const remembered = new Map<string, { schema: NormalizedDescriptorSet; size: number }>();
let rememberedBytes = 0;

/** The schema for (sha256, root): the remembered one (most recently used last), else `normalize()` remembered. */
export function rememberNormalizedSchema(
  sha256Hex: string,
  rootFullName: string,
  descriptorSize: number,
  normalize: () => NormalizedDescriptorSet,
): NormalizedDescriptorSet {
  const key = `${sha256Hex}\n${rootFullName}`;
  const hit = remembered.get(key);
  if (hit !== undefined) {
    remembered.delete(key);
    remembered.set(key, hit);
    return hit.schema;
  }
  const schema = normalize();
  if (descriptorSize > BYTE_BUDGET) return schema;
  remembered.set(key, { schema, size: descriptorSize });
  rememberedBytes += descriptorSize;
  while (remembered.size > CAPACITY || rememberedBytes > BYTE_BUDGET) {
    const [oldest, entry] = remembered.entries().next().value!;
    remembered.delete(oldest);
    rememberedBytes -= entry.size;
  }
  return schema;
}
