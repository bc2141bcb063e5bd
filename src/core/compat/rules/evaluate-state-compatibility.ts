/**
 * One state's answer to "will the restore work?": picks the rule set
 * from the saved snapshot's library line and the target line, runs identity/settings rules and the
 * exact or the directional evaluator, and phrases the failure Flink would report.
 */
import { declaresMessage } from './declares-message';
import { deriveJavaClassName } from '../descriptors/derive-java-class-name';
import { evaluateExactRule } from './evaluate-exact-rule';
import { evaluateIdentityRules } from './evaluate-identity-rules';
import { evaluateSchemaChange, type SchemaChangeResult } from './evaluate-schema-change';
import { createFinding } from './create-finding';
import { getRule } from './index';
import type { Finding, InferredEvaluation, LibraryLine, NewSide, SavedSide, Verdict } from '../types';

export interface PlanningAid {
  /** what the directional rules would say, had the target been able to read the snapshot */
  verdict: 'compatible' | 'incompatible';
  findings: Finding[];
  firstIncompatibility?: Finding;
}

export interface StateCompatibility {
  verdict: Verdict;
  target: LibraryLine;
  /** which rule set decided: exact (0.x), directional (1.x), or none (not-restorable) */
  ruleSet: 'exact' | 'directional' | 'none';
  savedRoot: string;
  newRoot: string;
  savedJavaClass?: string;
  newJavaClass?: string;
  findings: Finding[];
  firstIncompatibility?: Finding;
  /** the failure Flink would report for the restore */
  failureText?: string;
  /** not-restorable 0.x → 1.x: the directional answer, labelled as a planning aid */
  planningAid?: PlanningAid;
  /** the directional walk (reached pairs and indexes) for the schema diff; absent when a root is missing */
  schema?: SchemaChangeResult;
  /** the saved side was read by structure: the verdict is inferred, never exact (check exits 1 for it) */
  inferred?: InferredEvaluation;
}

export function evaluateStateCompatibility(saved: SavedSide, next: NewSide): StateCompatibility {
  // a new set without the state's root answers for that state alone (NEW_ROOT_MISSING), never for the others
  const rootMissing = !declaresMessage(next.newSet, next.newRoot);
  const newJavaClass = next.newKind === 'generated' && !rootMissing ? (next.newJavaClass ?? deriveJavaClassName(next.newSet, next.newRoot)) : undefined;
  const base = {
    target: next.target,
    savedRoot: saved.savedRoot,
    newRoot: next.newRoot,
    ...(saved.savedJavaClass ? { savedJavaClass: saved.savedJavaClass } : {}),
    ...(newJavaClass ? { newJavaClass } : {}),
    ...(saved.inferred ? { inferred: saved.inferred } : {}),
  };
  const identity = {
    savedKind: saved.savedKind,
    newKind: next.newKind,
    savedRoot: saved.savedRoot,
    newRoot: next.newRoot,
    ...(saved.savedSettings ? { savedSettings: saved.savedSettings } : {}),
    newSettings: next.newSettings,
    ...(saved.savedJavaClass ? { savedJavaClass: saved.savedJavaClass } : {}),
    ...(newJavaClass ? { newJavaClass } : {}),
  };
  const normalize = { keepJsonNames: next.keepJsonNames === true };
  const schema = rootMissing ? undefined : evaluateSchemaChange(saved.savedSet, saved.savedRoot, next.newSet, next.newRoot, normalize);
  // without the new type there is no new Java class to compare either: the missing root comes first
  const identityFindings = () =>
    schema
      ? evaluateIdentityRules(identity)
      : [
          createFinding('NEW_ROOT_MISSING', 'root', { root: next.newRoot }),
          ...evaluateIdentityRules(identity).filter((f) => f.ruleId !== 'JAVA_CLASS_CHANGED'),
        ];
  const directional = [...identityFindings(), ...(schema ? schema.findings : [])];
  const directionalFirst = directional.find((f) => !f.accepted);

  if (saved.savedLine !== next.target) {
    const reason =
      saved.savedLine === '0.x'
        ? '1.0.0 removed the 0.x snapshot classes, so Flink fails the restore; start with fresh state or replay the input'
        : 'downgrades are not supported';
    const finding = createFinding('TARGET_CANNOT_READ_SNAPSHOT', 'snapshot', {
      snapshotClass: saved.snapshotClass,
      savedLine: saved.savedLine,
      target: next.target,
      reason,
    });
    return {
      ...base,
      verdict: 'not-restorable',
      ruleSet: 'none',
      findings: [finding],
      firstIncompatibility: finding,
      // what Flink's InstantiationUtil.resolveClassByName throws when the snapshot class is not on the classpath
      failureText: `Could not find class '${saved.snapshotClass}' in classpath.`,
      planningAid: {
        verdict: directionalFirst ? 'incompatible' : 'compatible',
        findings: directional,
        ...(directionalFirst ? { firstIncompatibility: directionalFirst } : {}),
      },
      ...(schema ? { schema } : {}),
    };
  }
  const exact = () => (schema ? evaluateExactRule({ ...identity, savedSet: saved.savedSet, newSet: next.newSet, ...normalize }) : identityFindings());
  const findings = next.target === '0.x' ? exact() : directional;
  const first = findings.find((f) => !f.accepted);
  // a missing root is the new build's problem (no class to restore into), not a failure Flink prints on restore
  const failureText = first && first.ruleId !== 'NEW_ROOT_MISSING' ? describeRestoreFailure(saved, first, next.target) : undefined;
  return {
    ...base,
    verdict: first ? 'incompatible' : 'compatible',
    ruleSet: next.target === '0.x' ? 'exact' : 'directional',
    findings,
    ...(first ? { firstIncompatibility: first } : {}),
    ...(failureText ? { failureText } : {}),
    ...(schema ? { schema } : {}),
  };
}

/**
 * The failure Flink would print.
 * - 1.x directional rules: structural changes of generated-class state fail in
 *   restoreSerializer with the first incompatibility as the cause.
 * - 0.x exact rule: Flink's keyed backends fetch the previous serializer
 *   (restoreSerializer) before checking compatibility; the 0.x snapshot loads the saved class and requires the
 *   saved schema, so a schema, root or class change fails there with "Generated class has a different Protobuf
 *   schema" (a missing class with its ClassNotFoundException instead).
 * - Otherwise (limits, kinds) resolveSchemaCompatibility answers "incompatible" without a reason and Flink
 *   throws a StateMigrationException that names none.
 */
export function describeRestoreFailure(saved: SavedSide, first: Finding, target: '0.x' | '1.x' = '1.x'): string {
  const group = getRule(first.ruleId).group;
  if (
    saved.savedKind === 'generated' &&
    target === '0.x' &&
    (first.ruleId === 'EXACT_SCHEMA_CHANGED' || first.ruleId === 'ROOT_RENAMED' || first.ruleId === 'JAVA_CLASS_CHANGED')
  ) {
    return (
      `Cannot restore Protobuf serializer for ${saved.savedJavaClass ?? '(unknown class)'} (${saved.savedRoot}): ` +
      "supply a supported generated class with the saved schema through Flink's user-code classloader. " +
      'Cause: Generated class has a different Protobuf schema'
    );
  }
  const structural = first.ruleId === 'ROOT_RENAMED' || group === 'structure' || group === 'target';
  if (saved.savedKind === 'generated' && structural && target === '1.x') {
    return (
      `Cannot restore Protobuf serializer for ${saved.savedJavaClass ?? '(unknown class)'} (${saved.savedRoot}): ` +
      "supply a supported generated class that can read the saved schema through Flink's user-code classloader. " +
      `Cause: Generated class cannot read the saved Protobuf schema: ${first.message}`
    );
  }
  return `StateMigrationException: the new state serializer is incompatible with the old state serializer (Flink names no reason; the inspector found: ${first.message})`;
}
