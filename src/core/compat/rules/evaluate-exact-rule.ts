/**
 * The 0.x exact rule: compatible only if the
 * Java class name, the root full name and the normalized descriptor sets are equal as decoded
 * messages, and neither reader limit decreases. The deterministic flag is ignored.
 */
import { toBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema, FileDescriptorSetSchema, type FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import { createFinding } from './create-finding';
import { evaluateIdentityRules, type IdentityInput } from './evaluate-identity-rules';
import { evaluateSchemaChange } from './evaluate-schema-change';
import { haveSameContent } from './have-same-content';
import { indexDeclarations } from '../descriptors/index-declarations';
import { normalizeForComparison, type NormalizeOptions } from '../descriptors/normalize-for-comparison';
import { orderFilesByImports } from '../descriptors/order-files-by-imports';
import type { Finding } from '../types';
import { haveSameBytes } from '../../io';

export interface ExactRuleInput extends IdentityInput {
  savedSet: FileDescriptorSet;
  newSet: FileDescriptorSet;
  /** both sets are what generated code embeds: compare every json_name (normalize-for-comparison.ts) */
  keepJsonNames?: boolean;
}

export function evaluateExactRule(input: ExactRuleInput): Finding[] {
  const findings = evaluateIdentityRules(input);
  const difference = findExactDifference(input.savedSet, input.savedRoot, input.newSet, input.newRoot, { keepJsonNames: input.keepJsonNames === true });
  if (difference !== undefined) {
    findings.push(createFinding('EXACT_SCHEMA_CHANGED', 'descriptor set', { difference }));
  }
  return findings;
}

const exactSets = new WeakMap<FileDescriptorSet, Map<string, FileDescriptorSet>>();
const exactKeptSets = new WeakMap<FileDescriptorSet, Map<string, FileDescriptorSet>>();
const encodedSets = new WeakMap<FileDescriptorSet, Uint8Array>();

/**
 * Normalizes like the 0.x serializer: import closure of the root's file, Kahn order, generated-code
 * form. Remembered per set object and root (the result must not be mutated).
 */
export function normalizeForExactRule(set: FileDescriptorSet, root: string, options: NormalizeOptions = {}): FileDescriptorSet {
  const cache = options.keepJsonNames === true ? exactKeptSets : exactSets;
  let byRoot = cache.get(set);
  if (byRoot === undefined) {
    byRoot = new Map();
    cache.set(set, byRoot);
  }
  const cached = byRoot.get(root);
  if (cached !== undefined) return cached;
  const result = computeExactForm(set, root, options);
  byRoot.set(root, result);
  return result;
}

function computeExactForm(set: FileDescriptorSet, root: string, options: NormalizeOptions): FileDescriptorSet {
  const normalized = normalizeForComparison(set, options);
  const rootFile = indexDeclarations(normalized).byName.get(root)?.file;
  if (!rootFile) return normalized;
  const byName = new Map(normalized.file.map((f) => [f.name, f]));
  const closure = new Set<string>([rootFile.name]);
  const queue = [rootFile.name];
  for (let head = 0; head < queue.length; head++) {
    for (const dep of byName.get(queue[head])?.dependency ?? []) {
      if (!closure.has(dep) && byName.has(dep)) {
        closure.add(dep);
        queue.push(dep);
      }
    }
  }
  const files = orderFilesByImports(normalized.file.filter((f) => closure.has(f.name)));
  // already the exact form: the same set, so the directional walk over it is the one already done
  if (files.length === normalized.file.length && files.every((f, i) => f === normalized.file[i])) return normalized;
  return { ...normalized, file: files };
}

/** undefined when equal; otherwise the first difference in words. */
function findExactDifference(
  savedSet: FileDescriptorSet,
  savedRoot: string,
  newSet: FileDescriptorSet,
  newRoot: string,
  options: NormalizeOptions,
): string | undefined {
  const a = normalizeForExactRule(savedSet, savedRoot, options);
  const b = normalizeForExactRule(newSet, newRoot, options);
  // the walk (usually already done by the directional evaluation, and remembered) comes first: a finding
  // is a change, so the sets differ and neither set needs encoding (encoding both is the costly part)
  let first: string | undefined;
  try {
    first = evaluateSchemaChange(a, savedRoot, b, newRoot, options).findings[0]?.message;
  } catch {
    // a root missing on one side is reported by ROOT_RENAMED; fall through to a file-level description
  }
  if (first !== undefined && !haveSameContent(a, b)) return first;
  if (haveSameBytes(encodeSet(a), encodeSet(b))) return undefined;
  if (first !== undefined) return first;
  const names = (s: FileDescriptorSet): string[] => s.file.map((f) => f.name);
  const [savedNames, newNames] = [names(a), names(b)];
  if (savedNames.join('\n') !== newNames.join('\n')) return describeFileSetChange(savedNames, newNames);
  for (let i = 0; i < a.file.length; i++) {
    if (!haveSameBytes(toBinary(FileDescriptorProtoSchema, a.file[i]), toBinary(FileDescriptorProtoSchema, b.file[i]))) {
      return `file ${a.file[i].name} differs outside the declarations the root reaches`;
    }
  }
  return 'the descriptor set differs in its unknown fields';
}

/** The files the root reaches differ: name those that dropped out and those newly reached (or, with the same files, the order). */
function describeFileSetChange(saved: readonly string[], next: readonly string[]): string {
  const dropped = saved.filter((n) => !next.includes(n));
  const added = next.filter((n) => !saved.includes(n));
  const parts: string[] = [];
  if (dropped.length > 0) parts.push(`the root no longer reaches ${dropped.join(', ')}`);
  if (added.length > 0) parts.push(`${parts.length > 0 ? 'it' : 'the root'} now also reaches ${added.join(', ')}`);
  if (parts.length === 0) return `the files the root reaches come in another order (${saved.join(', ')} → ${next.join(', ')})`;
  return parts.join('; ');
}

function encodeSet(set: FileDescriptorSet): Uint8Array {
  let bytes = encodedSets.get(set);
  if (bytes === undefined) {
    bytes = toBinary(FileDescriptorSetSchema, set);
    encodedSets.set(set, bytes);
  }
  return bytes;
}
