/** The readable summary printed by `inspect` without --json. */
import type { InspectedOperator, InspectedState, SavepointInspection } from '../../core/flink';
import { describeProtobufSnapshots, formatProtobufSnapshotSummary } from '../../core/protobuf';

export function formatInspectionText(inspection: SavepointInspection): string {
  const lines: string[] = [];
  lines.push(`Savepoint inspection of ${inspection.input}`);
  lines.push(`  ${inspection.type}, format ${inspection.format}, _metadata version ${inspection.metadataVersion}, checkpoint id ${inspection.checkpointId}`);
  lines.push(`  total size ${formatBytes(inspection.totalSize)}, ${inspection.operators.length} operator${inspection.operators.length === 1 ? '' : 's'}`);
  for (const op of inspection.operators) lines.push('', ...formatOperator(op));
  if (inspection.warnings.length > 0) lines.push('', 'Warnings:', ...inspection.warnings.map((w) => `  - ${w}`));
  if (inspection.errors.length > 0) lines.push('', 'Errors:', ...inspection.errors.map((e) => `  - ${e.message}`));
  return `${lines.join('\n')}\n`;
}

function formatOperator(op: InspectedOperator): string[] {
  const label = [op.name ? `"${op.name}"` : '', op.uid ? `uid ${op.uid}` : ''].filter(Boolean).join(' ');
  const out = [`Operator ${op.id}${label ? `  ${label}` : ''}`];
  const finished = op.fullyFinished ? ', fully finished' : '';
  out.push(`  parallelism ${op.parallelism}, max parallelism ${op.maxParallelism}, ${op.subtaskCount} subtask state${op.subtaskCount === 1 ? '' : 's'}, state ${formatBytes(op.stateSize)}${op.keyedFormat === 'none' ? '' : `, keyed format ${op.keyedFormat}`}${finished}`);
  if (op.states.length === 0) out.push('  (no state)');
  for (const s of op.states) for (const line of formatState(s)) out.push(line);
  for (const w of op.warnings) out.push(`  warning: ${w}`);
  return out;
}

function formatState(s: InspectedState): string[] {
  const entries = s.entries === undefined ? '' : `, ${s.entries} entr${s.entries === 1 ? 'y' : 'ies'}`;
  const status = s.status === 'ok' ? '' : ` [${s.status}${s.statusReason ? `: ${s.statusReason}` : ''}]`;
  const out = [`  - ${s.name}  ${s.kind} (${s.scope})${entries}, subtasks ${s.subtasks.join(',') || '-'}${status}`];
  if (s.keySerializer) out.push(`      key       ${s.keySerializer.typeLabel}  (${s.keySerializer.className})`);
  if (s.namespaceSerializer) out.push(`      namespace ${s.namespaceSerializer.typeLabel}  (${s.namespaceSerializer.className})`);
  if (s.valueSerializer) out.push(`      value     ${s.valueSerializer.typeLabel}  (${s.valueSerializer.className})`);
  for (const p of describeProtobufSnapshots(s.valueSerializer)) out.push(`      ${formatProtobufSnapshotSummary(p)}`);
  return out;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB (${n} B)`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB (${n} B)`;
}
