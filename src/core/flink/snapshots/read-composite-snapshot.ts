import type { ByteReader } from '../../io';
import type { SerializerSnapshot, SnapshotReadContext } from './snapshot-types';

export const COMPOSITE_MAGIC = 911108;
export const NESTED_DELEGATE_MAGIC = 1333245;

export interface CompositeParts<T> {
  outerVersion: number;
  outer: T;
  nested: SerializerSnapshot[];
}

/**
 * CompositeTypeSerializerSnapshot content. Version ≥ 3: composite magic, outer
 * version, outer snapshot, nested delegate. Version ≤ 2 (legacy): outer snapshot read with the
 * snapshot version, then the nested delegate.
 */
export function readCompositeSnapshot<T>(
  r: ByteReader,
  version: number,
  ctx: SnapshotReadContext,
  readOuter: (r: ByteReader, outerVersion: number) => T,
): CompositeParts<T> {
  let outerVersion = version;
  if (version >= 3) {
    const at = r.position;
    const magic = r.readI32('composite snapshot magic');
    if (magic !== COMPOSITE_MAGIC) {
      throw r.error('bad-magic', `expected composite snapshot magic 911108 (00 0d e7 04), found ${magic}`, at);
    }
    outerVersion = r.readI32('outer snapshot version');
  }
  const outer = readOuter(r, outerVersion);
  const nested = readNestedSnapshots(r, ctx);
  return { outerVersion, outer, nested };
}

/** NestedSerializersSnapshotDelegate: magic 1333245, version 1, count, nested snapshots. */
export function readNestedSnapshots(r: ByteReader, ctx: SnapshotReadContext): SerializerSnapshot[] {
  const at = r.position;
  const magic = r.readI32('nested serializers magic');
  if (magic !== NESTED_DELEGATE_MAGIC) {
    throw r.error('bad-magic', `expected nested serializers magic 1333245 (00 14 57 fd), found ${magic}`, at);
  }
  const vAt = r.position;
  const delegateVersion = r.readI32('nested serializers version');
  if (delegateVersion !== 1) throw r.error('unsupported-version', `expected nested serializers version 1, found ${delegateVersion}`, vAt);
  // each nested snapshot has at least a u16 class name length and an i32 version
  const n = r.readCount('nested serializer snapshots', 6);
  const out: SerializerSnapshot[] = [];
  for (let i = 0; i < n; i++) out.push(ctx.readNested(r));
  return out;
}

export function expectNestedCount(r: ByteReader, className: string, nested: SerializerSnapshot[], expected: number, at: number): void {
  if (nested.length !== expected) {
    throw r.error('invalid-value', `expected ${expected} nested serializer snapshot${expected === 1 ? '' : 's'} in ${className}, found ${nested.length}`, at);
  }
}

export function checkOuterVersion(r: ByteReader, className: string, outerVersion: number, accepted: readonly number[]): void {
  if (!accepted.includes(outerVersion)) {
    throw r.error('unsupported-version', `expected outer snapshot version ${accepted.join(' or ')} of ${className}, found ${outerVersion}`);
  }
}

/** Sum of fixed lengths when every part has a length > 0 (or ≥ 0 when zeroAllowed), else -1. */
export function sumFixedLengths(parts: SerializerSnapshot[], zeroAllowed: boolean): number {
  let sum = 0;
  for (const p of parts) {
    if (p.fixedLength < 0 || (!zeroAllowed && p.fixedLength === 0)) return -1;
    sum += p.fixedLength;
  }
  return sum;
}

/** Joins the typeLabels of nested snapshots: `Long, String`. */
export function joinLabels(nested: SerializerSnapshot[]): string {
  return nested.map((n) => n.typeLabel).join(', ');
}
