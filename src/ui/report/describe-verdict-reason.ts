/**
 * The verdict's one-line reason (shown right under the badge, before any callout) and what changed in
 * the schema (the distinct changes of the reached declarations over every Protobuf state), so the
 * first screen says what changed, whether the restore works, and why.
 */
import type { CompatibilityReport, ReportFinding, ReportState } from '../../core/report';

/** One sentence: why the report's overall verdict is what it is. */
export function describeVerdictReason(report: CompatibilityReport, missingStateFiles = 0, inputType: InputType = 'savepoint'): string {
  const inferred = report.summary.inferred ?? 0;
  const reason = describeExactVerdictReason(report, missingStateFiles, inputType);
  if (inferred === 0) return reason;
  return `${reason} Inferred, not exact: the snapshot class of ${inferred} state${inferred === 1 ? ' is' : 's are'} one no reader knows, read by structure (its settings not located, so the limit rules were not checked); check exits 1 for it.`;
}

/** What was opened, as the inspection tells it (`unknown`: said as a savepoint). */
export type InputType = 'savepoint' | 'checkpoint' | 'unknown';

/** The nothing-to-check sentence, naming a checkpoint as one. */
export function describeNothingToCheck(inputType: InputType): string {
  return `This ${inputType === 'checkpoint' ? 'checkpoint' : 'savepoint'} holds no Protobuf state: nothing to check.`;
}

function describeExactVerdictReason(report: CompatibilityReport, missingStateFiles: number, inputType: InputType): string {
  const protobuf = report.states.filter((s) => s.ruleSet !== undefined);
  const n = protobuf.length;
  if (n === 0) {
    const unreadable = listUnreadableStates(report);
    if (unreadable.length === 0) return describeNothingToCheck(inputType);
    const states = `${unreadable.length} state${unreadable.length === 1 ? '' : 's'}`;
    if (missingStateFiles > 0)
      return `Nothing was checked: ${missingStateFiles} state file${missingStateFiles === 1 ? ' is' : 's are'} missing, so the serializers of ${states} could not be read: open the whole folder.`;
    return `No Protobuf state was found, but the headers of ${unreadable.length} state${unreadable.length === 1 ? '' : 's'} could not be read, so there may be some: ${unreadable[0]!.reason ?? 'no reason recorded'}`;
  }
  const of = (k: number) => (k === n ? `${n === 1 ? 'The' : `All ${n}`} Protobuf state${n === 1 ? '' : 's'}` : `${k} of ${n} Protobuf states`);
  if (report.verdict === 'not-restorable') {
    const failing = protobuf.filter((s) => s.verdict === 'not-restorable');
    const first = failing[0]!.firstIncompatibility;
    // Protobuf held by Kryo or written by flink-protobuf-serde: the headline the snapshots alone give before a schema is open
    // (both rules fail on every library line, whatever the schema)
    const kryo = failing.filter((s) => s.firstIncompatibility?.ruleId === 'KRYO_PROTOBUF_NOT_RESTORABLE').length;
    const peer = failing.filter((s) => s.firstIncompatibility?.ruleId === 'PEER_SERDE_STATE_NOT_SUPPORTED').length;
    if (kryo + peer === failing.length) return describeHeldByVerdict({ kryo, peer, protobufStates: n }, { target: report.target, sameOnBothLines: true });
    if (first?.ruleId === 'TARGET_CANNOT_READ_SNAPSHOT') {
      const p = first.params;
      const lineFailing = failing.filter((s) => s.firstIncompatibility?.ruleId === 'TARGET_CANNOT_READ_SNAPSHOT').length;
      return `${of(lineFailing)} ${lineFailing === 1 ? 'was' : 'were'} written by the ${p.savedLine} serializer, which the ${p.target} library cannot read: ${p.reason}.`;
    }
    return `${of(failing.length)} cannot be restored: ${failing[0]!.reason ?? first?.message ?? 'no reason recorded'}.`;
  }
  if (report.verdict === 'incompatible') {
    const failing = protobuf.filter((s) => s.verdict === 'incompatible');
    const messages = new Set(failing.map((s) => s.firstIncompatibility?.message ?? ''));
    const first = failing[0]!;
    const message = first.firstIncompatibility?.message ?? first.reason ?? 'no reason recorded';
    const who =
      failing.length === n
        ? n === 1
          ? 'The Protobuf state cannot'
          : `None of the ${n} Protobuf states can`
        : `${failing.length} of ${n} Protobuf states cannot`;
    // a settings change (maxMessageSize, recursionLimit, …) is a settings change, never called a schema change
    const withWhat = isSettingsFinding(first.firstIncompatibility?.ruleId ?? '')
      ? 'the new serializer settings (a settings change, not a schema change)'
      : 'the new schema';
    return messages.size === 1 ? `${who} be restored with ${withWhat}: ${message}` : `${who} be restored with ${withWhat}; first, ${first.state}: ${message}`;
  }
  if (report.verdict === 'compatible') return `${of(n)} can be restored with the new schema.`;
  const unknown = protobuf.filter((s) => s.verdict === 'unknown');
  if (unknown.length > 0) return `${of(unknown.length)} could not be checked: ${unknown[0]?.reason ?? 'no reason recorded'}.`;
  // every Protobuf state's schema passed, but not everything was checked (values or headers not read, an inferred verdict)
  return `No Protobuf state fails, but not everything was checked, so the verdict is unknown: ${(report.notChecked ?? []).join('; ')}.`;
}

/**
 * Protobuf state held by Kryo (chill-protobuf) or written by flink-protobuf-serde, which no new schema makes restorable:
 * one sentence, the same with the savepoint open alone (the serializer snapshots' verdict) and with a new schema (the check's).
 */
export function describeHeldByVerdict(
  held: { kryo: number; peer: number; protobufStates?: number },
  lines: { target: string; sameOnBothLines: boolean },
): string {
  const k = held.kryo + held.peer;
  const by = [held.kryo > 0 ? 'Kryo (chill-protobuf)' : null, held.peer > 0 ? "flink-protobuf-serde's ProtoSerializer" : null]
    .filter((x) => x !== null)
    .join(' or ');
  const who =
    held.protobufStates !== undefined && held.protobufStates > k
      ? `${k} of ${held.protobufStates} Protobuf states are`
      : k === 1
        ? '1 Protobuf state is'
        : `${k} Protobuf states are`;
  const can = lines.sameOnBothLines ? 'neither flink-datastream-protobuf 0.x nor 1.x can' : `flink-datastream-protobuf ${lines.target} cannot`;
  return `${who} held by ${by}: ${can} restore ${k === 1 ? 'it' : 'them'}, whatever the new schema.`;
}

export interface SchemaChange {
  ruleId: ReportFinding['ruleId'];
  message: string;
  /** whether the 1.x (directional) rules accept it; the 0.x rule accepts no change */
  accepted: boolean;
  /** the states whose reached declarations hold it, in report order */
  states: string[];
}

/** The distinct schema changes in the declarations the states reach (each once, in report order), with the states that reach each. */
export function listSchemaChanges(report: CompatibilityReport): SchemaChange[] {
  return listChanges(report, false);
}

/** The distinct changes of the serializer settings (maxMessageSize, recursionLimit, …), each once, with the states they reach: not schema changes. */
export function listSettingsChanges(report: CompatibilityReport): SchemaChange[] {
  return listChanges(report, true);
}

type ChangeFinding = { ruleId: ReportFinding['ruleId']; message: string; accepted: boolean };

function addChange(seen: Map<string, SchemaChange>, state: string, f: ChangeFinding): void {
  const known = seen.get(f.message);
  if (!known) seen.set(f.message, { ruleId: f.ruleId, message: f.message, accepted: f.accepted, states: [state] });
  else if (known.states.at(-1) !== state) known.states.push(state);
}

function listChanges(report: CompatibilityReport, settings: boolean): SchemaChange[] {
  const seen = new Map<string, SchemaChange>();
  for (const s of report.states) {
    if (settings) {
      // the settings rules' findings are the state's own (its schema diff holds the schema's)
      for (const f of s.findings) if (isSettingsFinding(f.ruleId)) addChange(seen, s.state, f);
      continue;
    }
    if (!s.diff) continue;
    const add = (f: ChangeFinding) => addChange(seen, s.state, f);
    for (const d of s.diff.declarations) for (const f of d.findings) add(f);
    for (const f of s.diff.otherFindings) if (!isSettingsFinding(f.ruleId)) add(f);
  }
  return [...seen.values()];
}

/**
 * Which of the states with a schema diff reach one change, when not all do: the 8 of 9 states that
 * reach it and the one that does not (its root reaches other declarations), or the few that do.
 * Empty when every state reaches it.
 */
export function describeChangeReach(change: SchemaChange, report: CompatibilityReport): string {
  const all = report.states.filter((s) => s.diff).map((s) => s.state);
  const k = change.states.length;
  const n = all.length;
  if (k >= n) return '';
  const reaching = new Set(change.states);
  const missing = all.filter((name) => !reaching.has(name));
  const head = `${k} of ${n} states reach${k === 1 ? 'es' : ''} it`;
  if (missing.length <= 3) return `${head}; not ${missing.join(', ')}`;
  if (k <= 3) return `${head}: ${change.states.join(', ')}`;
  return head;
}

/**
 * The distinct declarations that changed and no state reaches (they do not affect a 1.x verdict). A
 * declaration outside one state's root but reached by another is not counted: its change is listed
 * with the states that reach it.
 */
export function countUnreachedChanges(report: CompatibilityReport): number {
  const reached = new Set<string>();
  for (const s of report.states) for (const d of s.diff?.declarations ?? []) for (const name of [d.savedName, d.newName]) if (name) reached.add(name);
  const names = new Set<string>();
  for (const s of report.states) {
    for (const d of s.diff?.unreached ?? []) {
      if (d.status === 'unchanged') continue;
      const name = d.savedName ?? d.newName ?? '';
      if (!reached.has(name)) names.add(name);
    }
  }
  return names.size;
}

function isSettingsFinding(ruleId: string): boolean {
  return /^(MAX_MESSAGE_SIZE|RECURSION_LIMIT|DETERMINISTIC_SERIALIZATION|LARGE_PAYLOAD_ALIASING)_/.test(ruleId);
}

/** States whose serializer could not even be read (their headers are in missing or broken files): they may hold Protobuf state. */
export function listUnreadableStates(report: CompatibilityReport): ReportState[] {
  return report.states.filter((s) => s.ruleSet === undefined && s.serializer === '(unreadable)');
}

/** The badge's words: `nothing to check` for a savepoint that certainly holds no Protobuf state, else the verdict's. */
export function describeVerdictLabel(report: CompatibilityReport): string | undefined {
  if (report.summary.protobufStates === 0 && listUnreadableStates(report).length === 0) return 'nothing to check';
  // a verdict resting on a snapshot read by structure is never shown as exact
  return report.summary.inferred ? `${report.verdict === 'not-restorable' ? 'not restorable' : report.verdict} (inferred)` : undefined;
}
