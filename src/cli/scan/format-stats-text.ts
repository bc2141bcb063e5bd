import { describeScanFinding } from '../../core/compat';
import type { ParallelScanResult } from './run-parallel-scan';
import type { TtlTally } from '../../core/report';
import { formatSizeBreakdown, formatValueSizes } from '../format/format-size-breakdown';

/** Text form of the `stats` command; `quiet` keeps the first and sample lines and what was not read in whole, errors and warnings. */
export function formatStatsText(input: string, r: ParallelScanResult, { quiet = false }: { quiet?: boolean } = {}): string {
  const lines = [`Statistics of ${input} (${r.units} subtask streams, ${r.workers} worker${r.workers === 1 ? '' : 's'}, ${r.bytesRead} state bytes read)`];
  if (r.coverage) {
    const s = r.coverage.sample;
    const what = s.kind === 'key-groups' ? `key groups 0, ${s.every}, ${2 * s.every}, …` : `first ${s.count} entries per state`;
    lines.push(`  SAMPLE (${what}): ${r.coverage.keyGroupsRead} of ${r.coverage.keyGroupsWithData} key groups with data read; counts cover the sample only`);
  }
  if (r.ttlExpiry) lines.push(`  ${describeTtlExpiry(r.ttlExpiry)}`);
  for (const s of r.states) {
    if (s.notRead !== undefined && s.entries === 0) {
      lines.push(`  ${s.operatorId} ${s.scope} ${s.state}: values not read (${s.notRead})`);
      continue;
    }
    // some of it read: the counts cover only that, and say why
    const partly = [s.notRead !== undefined ? `not read in part: ${s.notRead}` : '', s.partly ?? ''].filter(Boolean).join('; ');
    if (quiet && !partly) continue;
    lines.push(`  ${s.operatorId} ${s.scope} ${s.state}: ${s.entries} entries, ${s.valueBytes} value bytes${partly ? ` (partly decoded: ${partly})` : ''}`);
    const p = s.protobuf;
    if (p && !quiet) {
      lines.push(
        `    Protobuf: ${p.values} values, ${p.totalPayloadBytes} payload bytes (max ${p.maxPayloadSize}), max depth ${p.maxDepth}, ${p.valuesWithUnknownFields} values with ${p.unknownFields} unknown fields, ${p.largeValues} large / ${p.aliasedValues} aliased, ${p.unreadableValues} unreadable`,
      );
      for (const f of p.findings.map(describeScanFinding)) lines.push(`    ${f.id}: ${f.count} value(s), e.g. ${f.exampleKeys.join(', ')} — ${f.detail}`);
      for (const e of p.errors) lines.push(`    unreadable ${e.key}: ${e.message} (payload offset ${e.offset})`);
    }
    if (s.ttl && !quiet) lines.push(`    ${describeTtlTally(s.ttl)}`);
  }
  if (!quiet) {
    const values = formatValueSizes(r.states, r.timers);
    const valueBytes = new Map(r.states.map((s) => [`${s.operatorId}\u0000${s.state}`, s.valueBytes]));
    const sizes = formatSizeBreakdown(r.sizes, (operatorId, state) => valueBytes.get(`${operatorId}\u0000${state}`));
    lines.push(...[...sizes, ...values].map((l) => `  ${l}`));
  }
  for (const e of r.errors) lines.push(`  error: ${e.message}`);
  for (const w of r.warnings ?? []) lines.push(`  warning: ${w}`);
  return `${lines.join('\n')}\n`;
}

function describeTtlExpiry(e: NonNullable<ParallelScanResult['ttlExpiry']>): string {
  const ttl = `TTL ${formatDuration(e.ttlMs)}`;
  if (e.atMs === null) return `${ttl}: no TTL value in the savepoint, nothing to judge`;
  const why =
    e.at === 'given'
      ? 'given by --ttl-at'
      : "the newest access time of the savepoint's TTL values: _metadata records no time, and the savepoint was taken at or after it; found in a first pass";
  return `${ttl}, values judged at ${new Date(e.atMs).toISOString()} (${why}): expired when last access + TTL <= that time`;
}

/** One TTL state's line: its values (a list state's elements, in how many lists), access times, and what had expired. */
function describeTtlTally(t: TtlTally): string {
  const values = t.values === t.entries ? `${t.values} values` : `${t.values} values in ${t.entries} entries`;
  const access =
    t.oldestAccess === null || t.newestAccess === null
      ? ''
      : `, last access ${new Date(t.oldestAccess).toISOString()} to ${new Date(t.newestAccess).toISOString()}`;
  const expired =
    t.expiredValues === undefined ? '' : `; ${t.expiredValues} expired${t.values === t.entries ? '' : ` (${t.expiredEntries ?? 0} entries wholly)`}`;
  return `TTL: ${values}${access}${expired}`;
}

/** Milliseconds in the largest unit that divides them (7d, 12h, 90s, 1500ms). */
function formatDuration(ms: number): string {
  for (const [unit, n] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const)
    if (ms % n === 0) return `${ms / n}${unit}`;
  return `${ms}ms`;
}
