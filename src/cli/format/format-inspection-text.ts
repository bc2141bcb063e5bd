/** The readable summary printed by `inspect` without --json. */
import { describeSourcesAndSinks } from '../../core/report';
import {
  getKryoSnapshotDetails,
  type InspectedOperator,
  type InspectedState,
  type InspectionSummary,
  type SavepointInspection,
  type SerializerSnapshot,
} from '../../core/flink';
import { describeProtobufSnapshots, formatProtobufSnapshotSummary } from '../../core/protobuf';
import type { SizeBreakdown } from '../../core/report';
import { formatSizeBreakdown } from './format-size-breakdown';

/** `sizes`: the "where the bytes are" section, after the operators. */
export function formatInspectionText(inspection: SavepointInspection, sizes?: SizeBreakdown): string {
  const lines: string[] = [];
  lines.push(`Savepoint inspection of ${inspection.input}`);
  lines.push(`  ${inspection.type}, format ${inspection.format}, _metadata version ${inspection.metadataVersion}, checkpoint id ${inspection.checkpointId}`);
  lines.push(`  total size ${formatBytes(inspection.totalSize)}, ${inspection.operators.length} operator${inspection.operators.length === 1 ? '' : 's'}`);
  for (const op of inspection.operators) lines.push('', ...formatOperator(op));
  if (inspection.sourcesAndSinks) lines.push('', 'Sources and sinks', ...describeSourcesAndSinks(inspection.sourcesAndSinks));
  if (sizes) lines.push('', ...formatSizeBreakdown(sizes));
  if (inspection.warnings.length > 0) lines.push('', 'Warnings:', ...inspection.warnings.map((w) => `  - ${w}`));
  if (inspection.errors.length > 0) lines.push('', 'Errors:', ...inspection.errors.map((e) => `  - ${e.message}`));
  lines.push('', formatSummaryLine(inspection.summary));
  return `${lines.join('\n')}\n`;
}

/** The closing line: how many states were decoded fully, and how many not (never a silent partial answer). */
export function formatSummaryLine(s: InspectionSummary): string {
  const states = (n: number) => `${n} state${n === 1 ? '' : 's'}`;
  const rest: string[] = [];
  if (s.partlyDecoded > 0) rest.push(`${s.partlyDecoded} partly decoded`);
  if (s.notRead > 0) rest.push(`${s.notRead} not read`);
  if (s.streamsNotRead > 0) rest.push(`the states of ${s.streamsNotRead} subtask stream${s.streamsNotRead === 1 ? '' : 's'} not listed`);
  const problems = rest.length === 0 ? '' : `; ${rest.join(', ')} (see above)`;
  if (s.notScanned > 0) return `${states(s.states)} listed, entries not scanned (--headers-only)${problems}`;
  return `${s.decodedFully} of ${states(s.states)} decoded fully${problems}`;
}

function formatOperator(op: InspectedOperator): string[] {
  const label = [op.name ? `"${op.name}"` : '', op.uid ? `uid ${op.uid}` : ''].filter(Boolean).join(' ');
  const out = [`Operator ${op.id}${label ? `  ${label}` : ''}`];
  const finished = op.fullyFinished ? ', fully finished' : '';
  out.push(
    `  parallelism ${op.parallelism}, max parallelism ${op.maxParallelism}, ${op.subtaskCount} subtask state${op.subtaskCount === 1 ? '' : 's'}, state ${formatBytes(op.stateSize)}${op.keyedFormat === 'none' ? '' : `, keyed format ${op.keyedFormat}`}${finished}`,
  );
  if (op.states.length === 0 && op.streamsNotRead.length === 0) out.push('  (no state)');
  for (const s of op.states) for (const line of formatState(s)) out.push(line);
  for (const n of op.streamsNotRead) out.push(`  - ${n.scope} state of subtask ${n.subtask}: not read, its states unknown [${n.reason}]`);
  for (const w of op.warnings) out.push(`  warning: ${w}`);
  return out;
}

function formatState(s: InspectedState): string[] {
  const entries = s.entries === undefined ? '' : `, ${s.entries} entr${s.entries === 1 ? 'y' : 'ies'}`;
  const status = formatStateStatus(s);
  const out = [`  - ${s.name}  ${s.kind} (${s.scope})${entries}, subtasks ${s.subtasks.join(',') || '-'}${status}`];
  if (s.keySerializer) out.push(`      key       ${s.keySerializer.typeLabel}  (${s.keySerializer.className})`);
  if (s.namespaceSerializer) out.push(`      namespace ${s.namespaceSerializer.typeLabel}  (${s.namespaceSerializer.className})`);
  if (s.valueSerializer) out.push(`      value     ${s.valueSerializer.typeLabel}  (${s.valueSerializer.className})`);
  for (const p of describeProtobufSnapshots(s.valueSerializer)) out.push(`      ${formatProtobufSnapshotSummary(p)}`);
  if (s.valueSerializer)
    out.push(...formatKryoSnapshots(s.valueSerializer, 0), ...formatPeerSerdeSnapshots(s.valueSerializer, 0), ...formatAvroSnapshots(s.valueSerializer, 0));
  return out;
}

/** Every flink-avro snapshot of the value serializer: the record, generic or not, the writer schema as saved; evolution not checked. */
function formatAvroSnapshots(s: SerializerSnapshot, depth: number): string[] {
  const out: string[] = [];
  const d = s.details;
  if (d?.['format'] === 'avro') {
    const runtime = d['runtimeType'] as string | null;
    const kind = d['record'] === 'generic' ? 'generic records' : 'specific or reflect records';
    out.push(
      `      avro      ${String(d['recordName'])}: ${kind}${runtime ? ` (${runtime})` : ''}, writer schema as saved; Avro schema evolution not checked`,
      `                schema ${String(d['schema'])}`,
    );
    if (d['schemaError']) out.push(`                values not decoded: ${String(d['schemaError'])}`);
  }
  if (depth < 64) for (const n of s.nested) out.push(...formatAvroSnapshots(n, depth + 1));
  return out;
}

/** Every flink-protobuf-serde snapshot of the value serializer: its documented hazard, and why its values are not decoded when they are not. */
function formatPeerSerdeSnapshots(s: SerializerSnapshot, depth: number): string[] {
  const out: string[] = [];
  const peer = s.details?.['peerSerde'] as { hazard: string; classesFound: string[]; messageType?: string } | undefined;
  if (peer) {
    out.push(`      peer      HAZARD: ${peer.hazard}`);
    if (s.codec === undefined) {
      const note = s.details?.['inferred'] as { notRead: string[] } | undefined;
      out.push(`                values not decoded: ${note?.notRead[0] ?? 'no message class mapped'}`);
    }
  }
  if (depth < 64) for (const n of s.nested) out.push(...formatPeerSerdeSnapshots(n, depth + 1));
  return out;
}

/** The bracketed note after a state: its header status, and after a scan how completely it was decoded (the reason said once). */
/** Every Kryo snapshot of the value serializer: registrations (kind, serializer), defaults, Protobuf behind Kryo. */
function formatKryoSnapshots(s: SerializerSnapshot, depth: number): string[] {
  const out: string[] = [];
  const kryo = getKryoSnapshotDetails(s);
  if (kryo) {
    const regs = kryo.registrations.map(
      (r) => `${r.registeredClass ?? r.name} ${r.kind ?? '(not loadable when written)'}${r.serializerClass ? ` ${r.serializerClass}` : ''}`,
    );
    out.push(`      kryo      ${kryo.typeClass}: registrations ${regs.length === 0 ? 'none' : regs.join(', ')}`);
    if (kryo.defaultSerializers.length > 0)
      out.push(`                default serializers ${kryo.defaultSerializers.map((d) => `${d.forClass} -> ${d.serializerClass ?? '?'}`).join(', ')}`);
    if (kryo.defaultSerializerClasses.length > 0)
      out.push(
        `                default serializer classes ${kryo.defaultSerializerClasses.map((d) => `${d.forClass} -> ${d.serializerClass ?? '?'}`).join(', ')}`,
      );
    const protobuf = s.details?.['protobuf'] as { kind: string; how: string; messageType?: string } | undefined;
    if (protobuf) {
      const what = protobuf.kind === 'chill' ? 'Protobuf behind Kryo (chill-protobuf)' : 'HAZARD: a Protobuf class held by plain Kryo (FieldSerializer)';
      out.push(
        `                ${what}: ${protobuf.how}${protobuf.messageType ? `; message ${protobuf.messageType}` : ''}${protobuf.kind === 'chill' && s.codec === undefined ? '; values not decoded (give the schema: --descriptors)' : ''}`,
      );
    }
  }
  if (depth < 64) for (const n of s.nested) out.push(...formatKryoSnapshots(n, depth + 1));
  return out;
}

function formatStateStatus(s: InspectedState): string {
  const header = s.status === 'ok' ? '' : ` [${s.status}${s.statusReason ? `: ${s.statusReason}` : ''}]`;
  if (s.decoded === undefined || s.decoded === 'fully') return header + (s.incomplete === undefined ? '' : ` [incomplete: ${s.incomplete}]`);
  const decoded = s.decoded === 'partly' ? 'partly decoded' : 'not read';
  // what the header status already said is not repeated
  const said = s.statusReason;
  const rest =
    s.decodedReason === undefined || s.decodedReason === said ? '' : said === undefined ? s.decodedReason : s.decodedReason.split(`: ${said}`).join('');
  const reason = rest === '' ? '' : `: ${rest}`;
  return `${header} [${decoded}${reason}]`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB (${n} B)`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB (${n} B)`;
}
