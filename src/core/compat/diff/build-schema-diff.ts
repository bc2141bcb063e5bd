/**
 * The schema-change diff model (feeds the UI's diff view and the reports): for each reached
 * declaration, saved and new members side by side with the findings of its rules; plus the
 * unreached declarations that changed, marked as not affecting the verdict.
 */
import { compareEnumDeclaration } from '../rules/compare-enum-declaration';
import { compareMessageDeclaration } from '../rules/compare-message-declaration';
import { describeDeclarationMembers, type MemberRow } from './describe-declaration-members';
import type { OptionFinders } from '../rules/describe-message-changes';
import type { SchemaChangeResult } from '../rules/evaluate-schema-change';
import type { Declaration, DeclarationIndex, MessageDeclaration } from '../descriptors/index-declarations';
import { checkPayloadProto3 } from '../rules/check-payload-proto3';
import { isMapField } from '../rules/describe-descriptor-parts';
import type { Finding } from '../types';
import { createOptionFinders, createWalkContext } from '../rules/walk-context';

export interface DiffDeclaration {
  kind: 'message' | 'enum';
  savedName?: string;
  newName?: string;
  savedFile?: string;
  newFile?: string;
  reached: boolean;
  /** false for unreached declarations: shown, never part of the verdict */
  affectsVerdict: boolean;
  status: 'unchanged' | 'changed' | 'added' | 'removed';
  findings: Finding[];
  rows: MemberRow[];
}

export interface SchemaDiff {
  savedRoot: string;
  newRoot: string;
  /** findings about files, identity and settings (not tied to one declaration) */
  otherFindings: Finding[];
  declarations: DiffDeclaration[];
  unreached: DiffDeclaration[];
}

export function buildSchemaDiff(schema: SchemaChangeResult, extraFindings: readonly Finding[] = []): SchemaDiff {
  const byDecl = new Map<string, Finding[]>();
  const other: Finding[] = [...extraFindings];
  const reachedNames = new Set(schema.reached.map((p) => p.saved.fullName));
  for (const f of schema.findings) {
    const owner = findOwner(f.path, reachedNames);
    if (!owner) other.push(f);
    else {
      // appended in place: a declaration may collect 100,000 findings (one per reserved range)
      const list = byDecl.get(owner);
      if (list) list.push(f);
      else byDecl.set(owner, [f]);
    }
  }
  const finders = createOptionFinders(schema.savedIndex, schema.nextIndex);
  const declarations = schema.reached.map((pair) => {
    const findings = byDecl.get(pair.saved.fullName) ?? [];
    return entry(pair.saved, pair.next, true, findings, findings.length > 0 || pair.saved.fullName !== pair.next.fullName ? 'changed' : 'unchanged', finders);
  });
  return {
    savedRoot: schema.reached[0]?.saved.fullName ?? '',
    newRoot: schema.reached[0]?.next.fullName ?? '',
    otherFindings: other,
    declarations,
    unreached: diffUnreached(schema, finders),
  };
}

function entry(
  saved: Declaration | undefined,
  next: Declaration | undefined,
  reached: boolean,
  findings: Finding[],
  status: DiffDeclaration['status'],
  finders: OptionFinders,
): DiffDeclaration {
  return {
    kind: (saved ?? next)!.kind,
    ...(saved ? { savedName: saved.fullName, savedFile: saved.file.name } : {}),
    ...(next ? { newName: next.fullName, newFile: next.file.name } : {}),
    reached,
    affectsVerdict: reached,
    status,
    findings,
    rows: describeDeclarationMembers(saved, next, finders),
  };
}

/** `example.Event.count (2)` → `example.Event` when that declaration was reached. */
function findOwner(path: string, reached: ReadonlySet<string>): string | undefined {
  let name = path.replace(/ \(\d+\)$/, '');
  while (name) {
    if (reached.has(name)) return name;
    const dot = name.lastIndexOf('.');
    if (dot < 0) return undefined;
    name = name.slice(0, dot);
  }
  return undefined;
}

/** Same-named declarations outside the reached set are compared one by one (no recursion); added/removed are listed. */
function diffUnreached(schema: SchemaChangeResult, finders: OptionFinders): DiffDeclaration[] {
  const reachedSaved = new Set(schema.reached.map((p) => p.saved.fullName));
  const reachedNew = new Set(schema.reached.map((p) => p.next.fullName));
  // every root of a check or compare shares the two indexes: their candidates are found once, then filtered per root
  return listUnreachedCandidates(schema, finders)
    .filter((c) => (c.side === 'saved' ? !reachedSaved.has(c.name) : !reachedNew.has(c.name)))
    .map((c) => ({ ...c.entry }));
}

interface UnreachedCandidate {
  /** the side whose reached set excludes it, and its full name there */
  side: 'saved' | 'new';
  name: string;
  entry: DiffDeclaration;
}

const candidates = new WeakMap<DeclarationIndex, WeakMap<DeclarationIndex, UnreachedCandidate[]>>();

/** Every saved declaration that is removed or changed under its name, then every added one, in index order. */
function listUnreachedCandidates(schema: SchemaChangeResult, finders: OptionFinders): UnreachedCandidate[] {
  let byNext = candidates.get(schema.savedIndex);
  if (byNext === undefined) {
    byNext = new WeakMap();
    candidates.set(schema.savedIndex, byNext);
  }
  const cached = byNext.get(schema.nextIndex);
  if (cached !== undefined) return cached;
  const out: UnreachedCandidate[] = [];
  for (const saved of schema.savedIndex.all) {
    if (saved.kind === 'message' && saved.proto.options?.mapEntry) continue;
    const next = schema.nextIndex.byName.get(saved.fullName);
    if (!next || next.kind !== saved.kind) {
      out.push({ side: 'saved', name: saved.fullName, entry: entry(saved, undefined, false, [], 'removed', finders) });
      continue;
    }
    const ctx = createWalkContext(schema.savedIndex, schema.nextIndex, true);
    if (saved.kind === 'message' && next.kind === 'message') {
      // one object in both sets (a file the two held alike): only what the new message alone decides can be found
      if (saved.proto === next.proto && sameMapFields(saved, next, schema)) checkPayloadProto3(ctx, next);
      else compareMessageDeclaration(ctx, saved, next);
    }
    if (saved.kind === 'enum' && next.kind === 'enum' && saved.proto !== next.proto) compareEnumDeclaration(ctx, saved, next);
    if (ctx.findings.length > 0) out.push({ side: 'saved', name: saved.fullName, entry: entry(saved, next, false, ctx.findings, 'changed', finders) });
  }
  for (const next of schema.nextIndex.all) {
    if (schema.savedIndex.byName.has(next.fullName)) continue;
    if (next.kind === 'message' && next.proto.options?.mapEntry) continue;
    out.push({ side: 'new', name: next.fullName, entry: entry(undefined, next, false, [], 'added', finders) });
  }
  byNext.set(schema.nextIndex, out);
  return out;
}

/** Whether each repeated message field of the (shared) message is a map field in both sets alike (its type resolves by name in each). */
function sameMapFields(saved: MessageDeclaration, next: MessageDeclaration, schema: SchemaChangeResult): boolean {
  return saved.proto.field.every((f) => isMapField(f, schema.savedIndex) === isMapField(f, schema.nextIndex)) && next.proto === saved.proto;
}
