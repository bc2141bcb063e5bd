/**
 * The short "where the bytes are" section of `inspect` and `stats` text: the operators by bytes, each
 * with its largest parts (a state, or what several states share), as sorted bars; and after a value
 * scan the largest values, the most skewed key groups and the timers per operator. A few lines: the
 * whole breakdown is in the JSON.
 */
import type { KeyGroupSkew, LargestValue, SizeBreakdown, SizeKind, SizePart } from '../../core/report';

const BAR = 20;
const MAX_OPERATORS = 5;
const MAX_PARTS = 4;

/** `valueBytesOf`: after a value scan, a state's value bytes, said after a part several states share (how its bytes might divide; not a split). */
export function formatSizeBreakdown(b: SizeBreakdown, valueBytesOf?: (operatorId: string, state: string) => number | undefined): string[] {
  if (b.operators.length === 0) return ['Where the bytes are: no state'];
  const lines = [`Where the bytes are (${shortBytes(b.totalBytes)} of state handles, from _metadata):`];
  const labelWidth = Math.min(
    44,
    Math.max(
      ...b.operators.slice(0, MAX_OPERATORS).flatMap((o) => [operatorLabel(o).length, ...o.parts.slice(0, MAX_PARTS).map((p) => partLabel(p).length + 2)]),
    ),
  );
  for (const op of b.operators.slice(0, MAX_OPERATORS)) {
    lines.push(
      `  ${fit(operatorLabel(op), labelWidth)}  ${bar(op.bytes, b.totalBytes)} ${shortBytes(op.bytes).padStart(10)} ${percent(op.bytes, b.totalBytes)}`,
    );
    for (const p of op.parts.slice(0, MAX_PARTS)) {
      lines.push(
        `    ${fit(partLabel(p), labelWidth - 2)}  ${bar(p.bytes, b.totalBytes)} ${shortBytes(p.bytes).padStart(10)} ${describeSubtasks(p)}`.trimEnd(),
      );
      if (p.attribution === 'shared' && valueBytesOf) {
        const known = p.states
          .map((name) => ({ name, bytes: valueBytesOf(op.operatorId, name) }))
          .filter((v): v is { name: string; bytes: number } => v.bytes !== undefined && v.bytes > 0)
          .sort((x, y) => y.bytes - x.bytes);
        if (known.length > 0) lines.push(`      their values: ${known.map((v) => `${v.name} ${shortBytes(v.bytes)}`).join(', ')}`);
      }
    }
    if (op.parts.length > MAX_PARTS) lines.push(`    … ${op.parts.length - MAX_PARTS} more part${op.parts.length - MAX_PARTS === 1 ? '' : 's'}`);
    if (op.keyGroups && op.keyGroups.withData > 1)
      lines.push(
        `    key groups: largest ${op.keyGroups.largest.keyGroup} ${shortBytes(op.keyGroups.largest.bytes)}, ${ratio(op.keyGroups.skew)} the median ${shortBytes(op.keyGroups.median)} of ${op.keyGroups.withData} with data`,
      );
  }
  if (b.operators.length > MAX_OPERATORS)
    lines.push(`  … ${b.operators.length - MAX_OPERATORS} more operator${b.operators.length - MAX_OPERATORS === 1 ? '' : 's'} (--format json lists all)`);
  return lines;
}

/** After a value scan: the largest values of the savepoint, the most skewed states' key groups, timers per operator. */
export function formatValueSizes(
  states: readonly { operatorId: string; state: string; largestValues?: LargestValue[]; keyGroupSkew?: KeyGroupSkew }[],
  timers: readonly { operatorId: string; timers: number }[],
): string[] {
  const lines: string[] = [];
  const largest = states
    .flatMap((s) => (s.largestValues ?? []).map((v) => ({ ...v, where: `${s.operatorId.slice(0, 8)} ${s.state}` })))
    .sort((a, b) => b.valueBytes - a.valueBytes)
    .slice(0, 5);
  if (largest.length > 0) {
    lines.push('Largest values:');
    for (const v of largest)
      lines.push(
        `  ${shortBytes(v.valueBytes).padStart(10)}  ${v.where}  key ${clip(v.key, 48)}${v.keyGroup >= 0 ? `, key group ${v.keyGroup}` : ''}, subtask ${v.subtask}`,
      );
  }
  const skewed = states
    .filter((s): s is typeof s & { keyGroupSkew: KeyGroupSkew } => s.keyGroupSkew !== undefined && s.keyGroupSkew.keyGroups > 1)
    .sort((a, b) => b.keyGroupSkew.skew - a.keyGroupSkew.skew)
    .slice(0, 3);
  if (skewed.length > 0) {
    lines.push('Key-group skew (largest key group by value bytes against the median):');
    for (const s of skewed) {
      const k = s.keyGroupSkew;
      lines.push(
        `  ${s.operatorId.slice(0, 8)} ${s.state}: key group ${k.largest.keyGroup} ${shortBytes(k.largest.valueBytes)} (${k.largest.entries} entr${k.largest.entries === 1 ? 'y' : 'ies'}), ${ratio(k.skew)} the median ${shortBytes(k.medianValueBytes)} of ${k.keyGroups} key groups`,
      );
    }
  }
  if (timers.length > 0) lines.push(`Timers: ${timers.map((t) => `${t.operatorId.slice(0, 8)} ${t.timers}`).join(', ')}`);
  return lines;
}

const KIND_TAG: Record<SizeKind, string> = { keyed: 'keyed', operator: 'operator', timers: 'timers', protobuf: 'Protobuf' };

function operatorLabel(op: { operatorId: string; name?: string; uid?: string }): string {
  const name = op.name ?? op.uid;
  return name ? `${op.operatorId.slice(0, 8)} ${name}` : op.operatorId;
}

function partLabel(p: SizePart): string {
  return `${p.label} [${p.attribution === 'header' ? 'header' : KIND_TAG[p.kind]}]`;
}

function describeSubtasks(p: SizePart): string {
  if (p.subtasks.length < 2) return '';
  let max = p.subtasks[0]!;
  for (const t of p.subtasks) if (t.bytes > max.bytes) max = t;
  return `${p.subtasks.length} subtasks, largest ${max.subtask}: ${shortBytes(max.bytes)}`;
}

function bar(n: number, total: number): string {
  const eighths = total > 0 ? Math.round((n / total) * BAR * 8) : 0;
  const full = Math.floor(eighths / 8);
  const rest = eighths % 8;
  const s = '█'.repeat(full) + (rest > 0 ? '▏▎▍▌▋▊▉'[rest - 1]! : '');
  return s.padEnd(BAR, ' ');
}

function percent(n: number, total: number): string {
  return total > 0 ? `${((n / total) * 100).toFixed(1)}%`.padStart(6) : '';
}

function ratio(r: number): string {
  return `${r.toFixed(r >= 10 ? 0 : 1)}×`;
}

function fit(s: string, width: number): string {
  return s.length > width ? `${s.slice(0, width - 1)}…` : s.padEnd(width);
}

function clip(s: string, width: number): string {
  return s.length > width ? `${s.slice(0, width - 1)}…` : s;
}

/** Bytes in B, KiB, MiB or GiB with one decimal. */
export function shortBytes(n: number): string {
  if (n < 1024) return `${Math.round(n)} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}
