/**
 * The directional evaluator: normalizes both sets, walks the reached
 * declarations depth first from the saved root in saved declaration order (each type once), and
 * reports every finding in walk order; the first rejected one is the first incompatibility.
 * Linear in the size of the reached schema: each declaration pair and file pair is compared once.
 * A check asks for the same walk more than once (the 0.x exact rule describes its first difference
 * with it), so results are remembered per pair of normalized sets and roots.
 */
import type { FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import { DecodeError } from '../../io';
import { checkPayloadProto3 } from './check-payload-proto3';
import { compareDeclaringContext } from './compare-declaring-context';
import { compareEnumDeclaration } from './compare-enum-declaration';
import { compareMessageDeclaration } from './compare-message-declaration';
import { indexDeclarations, resolveTypeName, type Declaration, type DeclarationIndex } from '../descriptors/index-declarations';
import { normalizeForComparison, type NormalizeOptions } from '../descriptors/normalize-for-comparison';
import type { Finding } from '../types';
import { createWalkContext, type WalkContext } from './walk-context';

export interface ReachedPair {
  saved: Declaration;
  next: Declaration;
}

export interface SchemaChangeResult {
  findings: Finding[];
  firstIncompatibility?: Finding;
  /** reached declaration pairs in walk order */
  reached: ReachedPair[];
  savedIndex: DeclarationIndex;
  nextIndex: DeclarationIndex;
}

const results = new WeakMap<FileDescriptorSet, WeakMap<FileDescriptorSet, Map<string, SchemaChangeResult>>>();

/** Remembered per pair of (normalized) sets and roots: the result is shared and must not be mutated. */
export function evaluateSchemaChange(
  savedSet: FileDescriptorSet,
  savedRoot: string,
  newSet: FileDescriptorSet,
  newRoot: string,
  options: NormalizeOptions = {},
): SchemaChangeResult {
  const savedNormalized = normalizeForComparison(savedSet, options);
  const nextNormalized = normalizeForComparison(newSet, options);
  let bySaved = results.get(savedNormalized);
  if (bySaved === undefined) {
    bySaved = new WeakMap();
    results.set(savedNormalized, bySaved);
  }
  let byRoots = bySaved.get(nextNormalized);
  if (byRoots === undefined) {
    byRoots = new Map();
    bySaved.set(nextNormalized, byRoots);
  }
  const key = `${savedRoot}\n${newRoot}`;
  const cached = byRoots.get(key);
  if (cached !== undefined) return cached;
  const result = walkSchemaChange(indexDeclarations(savedNormalized), savedRoot, indexDeclarations(nextNormalized), newRoot);
  byRoots.set(key, result);
  return result;
}

function walkSchemaChange(savedIndex: DeclarationIndex, savedRoot: string, nextIndex: DeclarationIndex, newRoot: string): SchemaChangeResult {
  const ctx = createWalkContext(savedIndex, nextIndex);
  const savedRootDecl = savedIndex.byName.get(savedRoot);
  const nextRootDecl = nextIndex.byName.get(newRoot);
  // callers check the roots first and name the file (check-savepoint.ts); this is the core's own guard
  if (savedRootDecl?.kind !== 'message')
    throw new DecodeError({ code: 'invalid-value', detail: `The saved descriptor set has no message ${savedRoot}`, path: ['saved descriptor set'] });
  if (nextRootDecl?.kind !== 'message')
    throw new DecodeError({ code: 'invalid-value', detail: `The new descriptor set has no message ${newRoot}`, path: ['new descriptor set'] });
  const reached = walkReached(ctx, { saved: savedRootDecl, next: nextRootDecl });
  checkNewOnlyPayload(ctx, nextRootDecl.fullName, new Set(reached.map((p) => p.next.fullName)));
  const findings = ctx.findings;
  const firstIncompatibility = findings.find((f) => !f.accepted);
  return { findings, ...(firstIncompatibility ? { firstIncompatibility } : {}), reached, savedIndex, nextIndex };
}

/** Depth-first pre-order with an explicit stack (no call-stack limit on deep schemas). */
function walkReached(ctx: WalkContext, root: ReachedPair): ReachedPair[] {
  const visited = new Set<string>();
  const order: ReachedPair[] = [];
  const stack: ReachedPair[] = [root];
  while (stack.length > 0) {
    const pair = stack.pop()!;
    if (visited.has(pair.saved.fullName)) continue;
    visited.add(pair.saved.fullName);
    order.push(pair);
    compareDeclaringContext(ctx, pair.saved, pair.next);
    if (pair.saved.kind === 'enum' || pair.next.kind === 'enum') {
      if (pair.saved.kind === 'enum' && pair.next.kind === 'enum') compareEnumDeclaration(ctx, pair.saved, pair.next);
      continue;
    }
    const retained = compareMessageDeclaration(ctx, pair.saved, pair.next);
    const children: ReachedPair[] = [];
    for (const { saved, next } of retained) {
      if (saved.type !== next.type || !saved.typeName || !next.typeName) continue;
      const s = ctx.saved.byName.get(resolveTypeName(saved.typeName));
      const n = ctx.next.byName.get(resolveTypeName(next.typeName));
      if (!s || !n || s.kind !== n.kind || visited.has(s.fullName)) continue;
      // a field whose type name changes (FIELD_TYPE_NAME_CHANGED, rejected) names another type: the two are
      // not one declaration, so they are not compared member by member (nor their files); a map field's
      // entry follows the field's name and is compared whatever its name
      if (s.fullName === n.fullName || isMapEntryPair(s, n)) children.push({ saved: s, next: n });
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return order;
}

function isMapEntryPair(saved: Declaration, next: Declaration): boolean {
  return saved.kind === 'message' && next.kind === 'message' && saved.proto.options?.mapEntry === true && next.proto.options?.mapEntry === true;
}

/** Messages only the new schema reaches (through added fields) must still be constructible. */
function checkNewOnlyPayload(ctx: WalkContext, newRoot: string, paired: ReadonlySet<string>): void {
  const seen = new Set<string>([newRoot]);
  const queue = [newRoot];
  for (let head = 0; head < queue.length; head++) {
    const decl = ctx.next.byName.get(queue[head]);
    if (decl?.kind !== 'message') continue;
    if (!paired.has(decl.fullName)) checkPayloadProto3(ctx, decl);
    for (const f of decl.proto.field) {
      const name = resolveTypeName(f.typeName);
      if (f.typeName && !seen.has(name)) {
        seen.add(name);
        queue.push(name);
      }
    }
  }
}
