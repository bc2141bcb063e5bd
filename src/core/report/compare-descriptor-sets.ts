/**
 * `compare` as one platform-free operation: the evaluator on two descriptor sets, the old
 * application's (what its state was saved with) and the new one's, for each root message the
 * user names — the same rules `check` applies to a savepoint's saved schema, without a savepoint
 * (for a pull request's CI, before any savepoint of the new schema exists; the exact analogue of
 * `buf breaking new.binpb --against old.binpb`).
 *
 * The old side stands for state written by the old application with the same library line as the
 * target and the library's default reader settings; both sides' Java classes are derived from
 * their sets' java options (generated-class state) unless the kind is `dynamic`.
 */
import {
  buildSchemaDiff,
  createDescriptorFileCache,
  DEFAULT_SETTINGS,
  deriveJavaClassName,
  evaluateStateCompatibility,
  indexDeclarations,
  loadDescriptorSet,
  normalizeForComparison,
  type DeclarationIndex,
  type LibraryLine,
  type TypeKind,
} from '../compat';
import { DecodeError, formatHex } from '../io';
import { computeSha256 } from '../protobuf';
import { buildReport } from './build-report';
import { DESCRIPTOR_SET_BLIND_SPOT, describeDescriptorSetSchema } from './describe-new-schema';
import type { CompatibilityReport, NewSchemaReport, ReportInputFile, ReportStateInput } from './report-types';

export interface DescriptorSetFile {
  name: string;
  bytes: Uint8Array;
  sha256?: string;
  /** the set was extracted from a job jar: the jar files for the report's inputs, and what the jar tells (its `jobJar`) */
  jar?: { files: ReportInputFile[]; schema?: NewSchemaReport };
}

export interface CompareDescriptorSetsInput {
  /** the old application's FileDescriptorSet; `sha256` (lower-case hex) when the caller has a native hash, else computed here */
  saved: DescriptorSetFile;
  /** the new application's FileDescriptorSet */
  next: DescriptorSetFile;
  /** one entry per state type: its root message in the old set, and in the new set when renamed */
  roots: readonly { savedRoot: string; newRoot?: string }[];
  tool: { name: string; version: string };
  /** library line of both applications (default 1.x) */
  target?: LibraryLine;
  /** type kind of both sides (default generated) */
  kind?: TypeKind;
  /** build each root's schema diff (default true; only the JSON and HTML formats print it) */
  schemaDiff?: boolean;
  generatedAt?: string;
}

/** What a compare report's entries show where a savepoint state has its serializer's snapshot class. */
export const COMPARE_SERIALIZER = 'descriptor set';
export const COMPARE_ROLE = 'schema';

export function compareDescriptorSets(input: CompareDescriptorSetsInput): CompatibilityReport {
  if (input.roots.length === 0) throw new Error('compareDescriptorSets: no root message to compare');
  // the evaluator compares the normalized sets (remembered per set): looking roots up in them too indexes each set once
  // two inputs of one name (`old/image.binpb`, `new/image.binpb`) are told apart in every message
  const sameName = input.saved.name === input.next.name;
  const savedLabel = sameName ? `old ${input.saved.name}` : input.saved.name;
  const newLabel = sameName ? `new ${input.next.name}` : input.next.name;
  // two job jars: both sides are what generated code embeds, so every json_name is compared as written
  const keepJsonNames = input.saved.jar !== undefined && input.next.jar !== undefined;
  // the two sets share the files they hold alike (decoded once, compared at once)
  const files = createDescriptorFileCache();
  const savedSet = normalizeForComparison(loadDescriptorSet(input.saved.bytes, savedLabel, files).set, { keepJsonNames });
  const newSet = normalizeForComparison(loadDescriptorSet(input.next.bytes, newLabel, files).set, { keepJsonNames });
  const savedIndex = indexDeclarations(savedSet);
  const newIndex = indexDeclarations(newSet);
  const target = input.target ?? '1.x';
  const kind = input.kind ?? 'generated';
  const states: ReportStateInput[] = [];
  for (const { savedRoot, newRoot = savedRoot } of input.roots) {
    requireMessage(savedIndex, savedRoot, savedLabel, 'old');
    requireMessage(newIndex, newRoot, newLabel, 'new');
    const savedJavaClass = kind === 'generated' ? deriveJavaClassName(savedSet, savedRoot) : undefined;
    const compatibility = evaluateStateCompatibility(
      {
        savedSet,
        savedRoot,
        ...(savedJavaClass ? { savedJavaClass } : {}),
        savedKind: kind,
        savedSettings: DEFAULT_SETTINGS,
        snapshotClass: COMPARE_SERIALIZER,
        savedLine: target,
      },
      { newSet, newRoot, newKind: kind, newSettings: DEFAULT_SETTINGS, target, ...(keepJsonNames ? { keepJsonNames } : {}) },
    );
    states.push({
      kind: 'protobuf',
      operator: { id: '' },
      state: savedRoot,
      role: COMPARE_ROLE,
      snapshotClass: COMPARE_SERIALIZER,
      compatibility,
      warnings: [],
      ...(compatibility.schema && input.schemaDiff !== false ? { diff: buildSchemaDiff(compatibility.schema) } : {}),
    });
  }
  return buildReport({
    subject: 'descriptor-sets',
    tool: input.tool,
    inputs: [
      ...(input.saved.jar?.files ?? [
        {
          role: 'saved-descriptors' as const,
          name: input.saved.name,
          size: input.saved.bytes.length,
          sha256: input.saved.sha256 ?? formatHex(computeSha256(input.saved.bytes)),
        },
      ]),
      ...(input.next.jar?.files ?? [
        {
          role: 'descriptors' as const,
          name: input.next.name,
          size: input.next.bytes.length,
          sha256: input.next.sha256 ?? formatHex(computeSha256(input.next.bytes)),
        },
      ]),
    ],
    target,
    newSettings: DEFAULT_SETTINGS,
    states,
    newSchema: describeCompareSchema(input.saved, input.next),
    ...(input.saved.jar?.schema?.jobJar ? { savedSchema: { source: 'job-jar' as const, jobJar: input.saved.jar.schema.jobJar } } : {}),
    ...(input.generatedAt ? { generatedAt: input.generatedAt } : {}),
  });
}

/** A jar's report, and what a descriptor-set side (new or old) cannot show. */
function describeCompareSchema(saved: DescriptorSetFile, next: DescriptorSetFile): NewSchemaReport {
  const base = next.jar?.schema ?? describeDescriptorSetSchema();
  if (next.jar !== undefined && saved.jar === undefined)
    return { ...base, cannotSee: [`(in the old application's descriptor set) ${DESCRIPTOR_SET_BLIND_SPOT}`] };
  return base;
}

function requireMessage(index: DeclarationIndex, name: string, file: string, side: 'old' | 'new'): void {
  if (index.byName.get(name)?.kind === 'message') return;
  throw new DecodeError({
    code: 'invalid-value',
    detail: `The ${side} descriptor set has no message ${name}${describeNearMisses(index, name)}`,
    file,
    path: ['descriptor set'],
  });
}

/** Up to five messages whose simple name matches, for a root given without or with the wrong package. */
function describeNearMisses(index: DeclarationIndex, name: string): string {
  const simple = name.slice(name.lastIndexOf('.') + 1);
  const near = [...index.byName].filter(([full, d]) => d.kind === 'message' && full.slice(full.lastIndexOf('.') + 1) === simple).map(([full]) => full);
  return near.length === 0 ? '' : ` (did you mean ${near.slice(0, 5).join(', ')}?)`;
}
