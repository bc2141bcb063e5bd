/**
 * The savepoint diff as text and as Markdown (a pull-request comment): both from one list of sections
 * (describeSavepointDiff), so the two never say different things. Unchanged states are counted, not listed.
 */
import type { DiffFailure, DiffSide, OperatorDiff, SavepointDiff, SerializerSide, StateDiff } from './savepoint-diff-types';
import { describeChange, describeGrowth, describeOperatorName, formatSize } from './evaluate-diff-failures';

export interface DiffSection {
  heading: string;
  lines: string[];
}

export function describeSavepointDiff(diff: SavepointDiff, failures: readonly DiffFailure[] = []): DiffSection[] {
  const sections: DiffSection[] = [];
  const head: string[] = [`older: ${describeSide(diff.older)}`, `newer: ${describeSide(diff.newer)}`, `total size ${describeChange(diff.size)}`];
  head.push(
    diff.valuesCompared
      ? 'values scanned on both sides (--values)'
      : 'read: _metadata and the state headers only (entries, value bytes and skew need --values)',
  );
  sections.push({ heading: 'Savepoint diff', lines: head });
  if (diff.relation === 'same-savepoint') {
    sections.push({ heading: 'Same savepoint', lines: ['both inputs are the same savepoint: their _metadata files are the same bytes, so nothing changed'] });
  } else if (diff.relation === 'different-jobs') {
    const list = (side: DiffSide, ops: SavepointDiff['operatorsAdded']) =>
      `${side.input} holds ${ops.length} operator${ops.length === 1 ? '' : 's'} with state: ${ops.map((o) => describeOperatorName(o)).join(', ') || 'none'}`;
    sections.push({
      heading: 'Different jobs',
      lines: [
        'no operator holding state is in both savepoints (no operator id in common, none holding the same states under another id): these look like savepoints of different jobs, so nothing was compared',
        list(diff.older, diff.operatorsRemoved),
        list(diff.newer, diff.operatorsAdded),
      ],
    });
  } else {
    for (const op of diff.operators) {
      const lines = describeOperator(op);
      if (lines.length > 0) sections.push({ heading: describeOperatorHeading(op), lines });
    }
    if (diff.operatorsAdded.length > 0)
      sections.push({
        heading: 'Operators added',
        lines: diff.operatorsAdded.map((o) => `${describeOperatorName(o)}: ${o.states.length} state(s) (${o.states.join(', ')}), ${formatSize(o.stateSize)}`),
      });
    if (diff.operatorsRemoved.length > 0)
      sections.push({
        heading: 'Operators removed',
        lines: diff.operatorsRemoved.map((o) => `${describeOperatorName(o)}: ${o.states.length} state(s) (${o.states.join(', ')}), ${formatSize(o.stateSize)}`),
      });
    const stateless = diff.statelessOperators;
    if (stateless.added + stateless.removed > 0)
      sections.push({ heading: 'Stateless operators', lines: [`${stateless.added} added, ${stateless.removed} removed`] });
  }
  if (diff.notCompared.length > 0) sections.push({ heading: 'Not compared', lines: [...diff.notCompared] });
  if (diff.warnings.length > 0) sections.push({ heading: 'Warnings', lines: limitLines(diff.warnings, MAX_WARNINGS) });
  sections.push({ heading: 'Summary', lines: [describeSummary(diff), ...failures.map((f) => `FAIL (${f.condition}): ${f.message}`)] });
  return sections;
}

export function formatSavepointDiffText(diff: SavepointDiff, failures: readonly DiffFailure[] = []): string {
  const out: string[] = [];
  for (const s of describeSavepointDiff(diff, failures)) {
    if (out.length > 0) out.push('');
    out.push(s.heading, ...s.lines.map((l) => `  ${l}`));
  }
  return `${out.join('\n')}\n`;
}

export function formatSavepointDiffMarkdown(diff: SavepointDiff, failures: readonly DiffFailure[] = []): string {
  const [first, ...rest] = describeSavepointDiff(diff, failures);
  const out = [`## ${first!.heading}`, '', ...first!.lines.map((l) => `- ${escapeMarkdown(l)}`)];
  for (const s of rest) out.push('', `### ${escapeMarkdown(s.heading)}`, '', ...s.lines.map((l) => `- ${escapeMarkdown(l)}`));
  return `${out.join('\n')}\n`;
}

/** warnings shown at most (a checkpoint's absolute handles give one per file); the JSON has them all */
const MAX_WARNINGS = 6;

function limitLines(lines: readonly string[], max: number): string[] {
  return lines.length <= max ? [...lines] : [...lines.slice(0, max), `… and ${lines.length - max} more (all in --format json)`];
}

function escapeMarkdown(s: string): string {
  return s.replace(/([\\`*_[\]<>|])/g, '\\$1');
}

function describeSide(s: DiffSide): string {
  return `${s.input} (${s.type} ${s.checkpointId}, ${s.format}, _metadata version ${s.metadataVersion}, ${formatSize(s.totalSize)}, ${s.operators} operators, ${s.states} states)`;
}

function describeOperatorHeading(op: OperatorDiff): string {
  if (op.match === 'renamed') return `Operator renamed: ${describeOperatorName(op.older)} → ${describeOperatorName(op.newer)}`;
  return `Operator ${describeOperatorName(op.newer)}`;
}

/** The lines of a matched operator; none when nothing of it changed. */
function describeOperator(op: OperatorDiff): string[] {
  const lines: string[] = [];
  if (op.match === 'renamed')
    lines.push(
      `same states (names and serializers) under another operator id: ${op.older.id} → ${op.newer.id}; Flink restores them only if the uid is mapped back`,
    );
  if (op.parallelism) lines.push(`parallelism ${op.parallelism.older} → ${op.parallelism.newer}`);
  if (op.maxParallelism)
    lines.push(`max parallelism ${op.maxParallelism.older} → ${op.maxParallelism.newer}: keyed state is not restorable across a max-parallelism change`);
  const sizeChanged = op.size.older !== op.size.newer;
  if (sizeChanged || lines.length > 0 || op.statesAdded.length + op.statesRemoved.length > 0 || op.states.some(isChanged)) {
    lines.push(`size ${describeChange(op.size)}${op.keyedSize ? `; keyed state (all keyed states together) ${describeChange(op.keyedSize)}` : ''}`);
    const subtasks = op.subtasks.filter((s) => s.older !== s.newer);
    if (subtasks.length > 0)
      lines.push(`subtasks: ${subtasks.map((s) => `#${s.subtask} ${formatSize(s.older)} → ${formatSize(s.newer)} (${describeGrowth(s)})`).join(', ')}`);
  }
  for (const s of op.statesAdded) lines.push(`+ state ${s} (added)`);
  for (const s of op.statesRemoved) lines.push(`- state ${s} (removed)`);
  let unchanged = 0;
  // keyed states read from their headers only: no size of their own (that needs --values), so not "unchanged"
  let unmeasured = 0;
  for (const s of op.states) {
    const stateLines = describeState(s);
    if (stateLines.length > 0) lines.push(`state ${s.scope}/${s.name}:`, ...stateLines.map((l) => `  ${l}`));
    else if (s.scope === 'keyed' && s.size === undefined && s.values === undefined) unmeasured++;
    else unchanged++;
  }
  if (lines.length === 0) return [];
  if (unchanged > 0) lines.push(`${unchanged} state${unchanged === 1 ? '' : 's'} unchanged`);
  if (unmeasured > 0)
    lines.push(
      `${unmeasured} keyed state${unmeasured === 1 ? '' : 's'}: same serializers and saved schemas; ${unmeasured === 1 ? 'its' : 'their'} entries and bytes were not read (--values)`,
    );
  return lines;
}

function isChanged(s: StateDiff): boolean {
  return describeState(s).length > 0;
}

function describeState(s: StateDiff): string[] {
  const lines: string[] = [];
  if (s.notCompared) lines.push(`not compared: ${s.notCompared}`);
  if (s.kind) lines.push(`kind ${s.kind.older} → ${s.kind.newer}`);
  for (const c of s.serializers) lines.push(`${c.role}: ${describeSerializer(c.older)} → ${describeSerializer(c.newer)}`);
  for (const c of s.savedSchemas) {
    const root = c.olderRoot === c.newerRoot ? c.olderRoot : `${c.olderRoot} → ${c.newerRoot}`;
    lines.push(
      `saved schema (${c.role}) ${root} changed (sha256 ${c.olderSha256.slice(0, 12)}… → ${c.newerSha256.slice(0, 12)}…): older state under the newer schema: ${c.verdict}${c.firstIncompatibility ? ` — ${c.firstIncompatibility}` : ''}`,
    );
    const said = new Set(c.changes.map((f) => `${f.ruleId} ${f.path}`));
    for (const f of [...c.findings.filter((x) => !said.has(`${x.ruleId} ${x.path}`)), ...c.changes])
      lines.push(`  ${f.accepted ? 'accepted' : 'rejected'} ${f.ruleId} at ${f.path}: ${f.message}`);
  }
  if (s.size && s.size.older !== s.size.newer) {
    lines.push(`size ${describeChange(s.size)}`);
    const subtasks = (s.subtaskSizes ?? []).filter((x) => x.older !== x.newer);
    if (subtasks.length > 1) lines.push(`subtasks: ${subtasks.map((x) => `#${x.subtask} ${formatSize(x.older)} → ${formatSize(x.newer)}`).join(', ')}`);
  }
  const v = s.values;
  if (v) {
    if (v.entries.older !== v.entries.newer || v.valueBytes.older !== v.valueBytes.newer) {
      lines.push(`entries ${describeChange(v.entries, 'count')}, value bytes ${describeChange(v.valueBytes)}`);
      const subtasks = v.subtaskEntries.filter((x) => x.older !== x.newer);
      if (subtasks.length > 0) lines.push(`entries per subtask: ${subtasks.map((x) => `#${x.subtask} ${x.older} → ${x.newer}`).join(', ')}`);
    }
    const a = v.skew?.older;
    const b = v.skew?.newer;
    if (v.skew && a?.ratio !== b?.ratio)
      lines.push(
        `key-group skew ${a ? `${a.ratio}x (key group ${a.keyGroup}: ${a.entries} entries, median ${a.median})` : 'none'} → ${b ? `${b.ratio}x (key group ${b.keyGroup}: ${b.entries} entries, median ${b.median})` : 'none'}`,
      );
    if (v.notRead?.older) lines.push(`older values not all read: ${v.notRead.older}`);
    if (v.notRead?.newer) lines.push(`newer values not all read: ${v.notRead.newer}`);
  }
  return lines;
}

function describeSerializer(s: SerializerSide | undefined): string {
  return s ? `${s.typeLabel} (${s.className} v${s.version})` : 'none';
}

function describeSummary(diff: SavepointDiff): string {
  if (diff.relation === 'same-savepoint') return 'no change (the same savepoint)';
  if (diff.relation === 'different-jobs') return 'not compared: no operator in common';
  let changedStates = 0;
  let states = 0;
  for (const op of diff.operators) {
    states += op.states.length;
    changedStates += op.states.filter(isChanged).length;
  }
  const added = diff.operators.reduce((n, op) => n + op.statesAdded.length, 0);
  const removed = diff.operators.reduce((n, op) => n + op.statesRemoved.length, 0);
  const renamed = diff.operators.filter((op) => op.match === 'renamed').length;
  const parts = [
    `${diff.operators.length} operator${diff.operators.length === 1 ? '' : 's'} compared${renamed > 0 ? ` (${renamed} renamed)` : ''}`,
    `${diff.operatorsAdded.length} added, ${diff.operatorsRemoved.length} removed`,
    `${changedStates} of ${states} common states changed, ${added} added, ${removed} removed`,
  ];
  if (diff.notCompared.length > 0) parts.push(`${diff.notCompared.length} part(s) not compared`);
  return parts.join('; ');
}
