/**
 * Key-group shards of `stats` (`stats --key-groups A-B --format json`) and their merge
 * (`merge-stats`): a shard's file is its statistics plus what the merge needs to make the whole run's
 * (`stats --format json --workers 1`) byte for byte: each state's and error's place in the whole scan's
 * order (ScanPosition), and the shard's scope (savepoint, schema, tool version, key groups, whether it
 * read the operator state). The statistics add up by construction: counts and byte sums add, maxima
 * take the larger, example lists join in scan order and keep their first five (mergeStateStats);
 * key groups of one subtask split across shards come in key-group order, so the shards joined in
 * key-group order read their entries in the whole scan's order.
 */
import { wrongInput } from '../../core/io';
import type { StateSample } from '../../core/flink';
import { buildSizeBreakdown, countTimersByOperator, finishValueSizes, sizedStatesOfStats } from '../../core/report';
import { readSavepointMetadata } from '../../core/flink';
import { mergeCoverage, mergeStateStats } from './merge-state-stats';
import type { ParallelScanResult, ShardScope } from './run-parallel-scan';
import { describeSavepointIdentity, sha256Hex, TOOL_VERSION, type KeyGroupRange, type SavepointIdentity } from './shard-identity';
import type { ScanPosition, StateStats } from './state-stats-types';
import type { DecodeErrorJson } from '../../core/io';

/** What every shard file says of itself (stats and check's value scans): what a merge checks. */
export interface ShardHeaderBase {
  toolVersion: string;
  savepoint: SavepointIdentity;
  /** SHA-256 of the schema the values were scanned with (stats: `--descriptors`; check: the new schema and its options), or null */
  schemaSha256: string | null;
  keyGroups: KeyGroupRange;
  maxParallelism: number;
  operatorState: boolean;
  sample?: StateSample | null;
}

/** The shard part of a stats shard file. */
export interface ShardHeader extends ShardHeaderBase {
  kind: 'stats';
  toolVersion: string;
  savepoint: SavepointIdentity;
  /** SHA-256 of the descriptor set the values were scanned with (`--descriptors`), or null */
  schemaSha256: string | null;
  keyGroups: KeyGroupRange;
  maxParallelism: number;
  operatorState: boolean;
  sample: StateSample | null;
  /** `--ttl` with `--ttl-at` (a shard needs the time given): every shard's TTL values judged against the same; absent without `--ttl` */
  ttlExpiry?: { ttlMs: number; atMs: number };
}

export interface StatsShardFile {
  shard: ShardHeader;
  /** the savepoint's `_metadata`, base64: the merge builds the sizes from it (its SHA-256 is the shard header's savepoint identity) */
  metadata: string;
  states: (StateStats & { at?: ScanPosition })[];
  errors: DecodeErrorJson[];
  errorsAt: ScanPosition[];
  coverage?: ParallelScanResult['coverage'];
  bytesRead: number;
  workers: number;
  units: number;
  warnings?: string[];
}

/** The shard file's body (formatJsonDocument adds schemaVersion). */
export function buildStatsShard(stats: ParallelScanResult, scope: ShardScope, schemaSha256: string | null, sample: StateSample | undefined): StatsShardFile {
  return {
    shard: {
      kind: 'stats',
      toolVersion: TOOL_VERSION,
      savepoint: scope.savepoint,
      schemaSha256,
      keyGroups: scope.keyGroups,
      maxParallelism: scope.maxParallelism,
      operatorState: scope.operatorState,
      sample: sample ?? null,
      ...(stats.ttlExpiry && stats.ttlExpiry.atMs !== null ? { ttlExpiry: { ttlMs: stats.ttlExpiry.ttlMs, atMs: stats.ttlExpiry.atMs } } : {}),
    },
    metadata: Buffer.from(stats.metadataBytes ?? new Uint8Array(0)).toString('base64'),
    states: stats.states,
    errors: stats.errors,
    errorsAt: stats.errorsAt ?? [],
    ...(stats.coverage ? { coverage: stats.coverage } : {}),
    bytesRead: stats.bytesRead,
    workers: stats.workers,
    units: stats.units,
    ...(stats.warnings ? { warnings: stats.warnings } : {}),
  };
}

/** A named shard: the file it came from, for the messages. */
export interface NamedShard<H extends ShardHeaderBase = ShardHeader> {
  name: string;
  header: H;
}

/**
 * Refuses shards that do not make one whole (a UsageError, exit 2, naming the files): another tool
 * version, another savepoint, another schema or sample, key groups missing or read twice, operator
 * state read by no shard or by several. Returns the shards in key-group order.
 */
export function checkShardsMakeWhole<H extends ShardHeaderBase & { ttlExpiry?: { ttlMs: number; atMs: number } }>(
  shards: readonly NamedShard<H>[],
): NamedShard<H>[] {
  if (shards.length === 0) throw wrongInput('no-input', 'expected shard files to merge, found none');
  for (const s of shards) {
    if (s.header.toolVersion !== TOOL_VERSION)
      throw wrongInput(
        'shards-mismatch',
        `${s.name} was written by savepoint-inspector ${s.header.toolVersion}, this is ${TOOL_VERSION}: write every shard with the same version`,
      );
  }
  const first = shards[0]!;
  for (const s of shards.slice(1)) {
    const a = first.header.savepoint;
    const b = s.header.savepoint;
    if (a.checkpointId !== b.checkpointId || a.metadataSha256 !== b.metadataSha256)
      throw wrongInput(
        'shards-mismatch',
        `expected shards of one savepoint, found two: ${first.name} (${describeSavepointIdentity(a)}) and ${s.name} (${describeSavepointIdentity(b)})`,
      );
    if (first.header.schemaSha256 !== s.header.schemaSha256)
      throw wrongInput(
        'shards-mismatch',
        `expected shards scanned with one schema, found two: ${first.name} (${describeSchema(first.header.schemaSha256)}) and ${s.name} (${describeSchema(s.header.schemaSha256)})`,
      );
    if (JSON.stringify(first.header.sample ?? null) !== JSON.stringify(s.header.sample ?? null))
      throw wrongInput(
        'shards-mismatch',
        `expected shards of one sample, found two: ${first.name} (${describeSample(first.header.sample)}) and ${s.name} (${describeSample(s.header.sample)})`,
      );
    if (JSON.stringify(first.header.ttlExpiry ?? null) !== JSON.stringify(s.header.ttlExpiry ?? null))
      throw wrongInput(
        'shards-mismatch',
        `expected shards of one --ttl and --ttl-at, found two: ${first.name} (${describeTtl(first.header.ttlExpiry)}) and ${s.name} (${describeTtl(s.header.ttlExpiry)})`,
      );
  }
  const max = first.header.maxParallelism;
  const sorted = [...shards].sort((a, b) => a.header.keyGroups.start - b.header.keyGroups.start || a.header.keyGroups.end - b.header.keyGroups.end);
  const missing: string[] = [];
  const doubled: string[] = [];
  let next = 0;
  let last: NamedShard<H> | undefined;
  for (const s of sorted) {
    const { start, end } = s.header.keyGroups;
    if (start > next) missing.push(formatRange(next, start - 1));
    else if (start < next && last) doubled.push(`${formatRange(start, Math.min(end, next - 1))} (${last.name} and ${s.name})`);
    if (end + 1 > next) {
      next = end + 1;
      last = s;
    }
  }
  if (next < max) missing.push(formatRange(next, max - 1));
  if (doubled.length > 0 || missing.length > 0) {
    const said = [
      ...(doubled.length > 0 ? [`key groups ${doubled.join(', ')} are in more than one shard`] : []),
      ...(missing.length > 0 ? [`key groups ${missing.join(', ')} are in no shard`] : []),
    ];
    throw wrongInput('shards-mismatch', `expected shards covering key groups 0-${max - 1} once each, found: ${said.join('; ')}`);
  }
  const owners = sorted.filter((s) => s.header.operatorState);
  if (owners.length !== 1)
    throw wrongInput(
      'shards-mismatch',
      owners.length === 0
        ? `expected one shard that read the operator state (the one of key group 0, or --operator-state yes), found none`
        : `expected one shard that read the operator state, found ${owners.length}: ${owners.map((s) => s.name).join(', ')}`,
    );
  return sorted;
}

function formatRange(a: number, b: number): string {
  return a === b ? String(a) : `${a}-${b}`;
}

function describeSchema(sha: string | null): string {
  return sha === null ? 'no --descriptors' : `schema sha256 ${sha.slice(0, 12)}`;
}

function describeTtl(e: { ttlMs: number; atMs: number } | undefined): string {
  return e === undefined ? 'no --ttl' : `--ttl ${e.ttlMs} ms at ${new Date(e.atMs).toISOString()}`;
}

function describeSample(sample: unknown): string {
  const s = sample as StateSample | null | undefined;
  if (s === null || s === undefined) return 'every key group';
  return s.kind === 'key-groups' ? `--every-key-group ${s.every}` : `--limit ${s.count}`;
}

/** Reads a shard file's JSON (a UsageError when it is not one). */
export function readStatsShard(name: string, text: string): StatsShardFile {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw wrongInput('shards-mismatch', `expected ${name} to be a stats shard file (stats --key-groups A-B --format json), found no JSON`);
  }
  const shard = (doc as { shard?: { kind?: unknown; toolVersion?: unknown } } | null)?.shard;
  if (typeof shard !== 'object' || shard === null || shard.kind !== 'stats' || typeof shard.toolVersion !== 'string')
    throw wrongInput(
      'shards-mismatch',
      `expected ${name} to be a stats shard file (stats --key-groups A-B --format json), found JSON without its "shard" header`,
    );
  return doc as StatsShardFile;
}

/** The whole run's statistics from its shards (checked with checkShardsMakeWhole, in key-group order). */
export function mergeStatsShards(shards: readonly NamedShard[], files: ReadonlyMap<string, StatsShardFile>): ParallelScanResult {
  const docs = shards.map((s) => files.get(s.name)!);
  const at = new Map<string, ScanPosition | undefined>();
  for (const d of docs)
    for (const s of d.states) {
      const k = stateKey(s);
      const p = s.at;
      const have = at.get(k);
      if (!at.has(k) || (p !== undefined && (have === undefined || comparePositions(p, have) < 0))) at.set(k, p);
    }
  const merged = mergeStateStats(docs.map((d) => d.states)).map((s) => ({ s, at: at.get(stateKey(s)) }));
  // a stable sort: states in the order the whole scan meets them
  merged.sort((a, b) => (a.at === undefined ? (b.at === undefined ? 0 : 1) : b.at === undefined ? -1 : comparePositions(a.at, b.at)));
  const errors: { at: ScanPosition; error: DecodeErrorJson; text: string }[] = [];
  for (const d of docs)
    d.errors.forEach((error, i) => {
      const p = d.errorsAt[i] ?? [Infinity, 0, 0];
      const text = JSON.stringify(error);
      // a stream split over shards fails in each the same way (its header): once
      if (!errors.some((e) => e.text === text && comparePositions(e.at, p) === 0)) errors.push({ at: p, error, text });
    });
  errors.sort((a, b) => comparePositions(a.at, b.at));
  const coverage = mergeCoverage(docs.map((d) => d.coverage));
  const warnings = docs[0]!.warnings;
  const states = merged.map(({ s }) => finishValueSizes(orderStateKeys(s)));
  const metadataBytes = new Uint8Array(Buffer.from(docs[0]!.metadata, 'base64'));
  if (sha256Hex(metadataBytes) !== docs[0]!.shard.savepoint.metadataSha256)
    throw wrongInput(
      'shards-mismatch',
      `expected ${shards[0]!.name}'s _metadata to have the SHA-256 its header names, found other bytes: the shard file was changed`,
    );
  return {
    states,
    errors: errors.map((e) => e.error),
    ...(coverage ? { coverage } : {}),
    bytesRead: docs.reduce((n, d) => n + d.bytesRead, 0),
    workers: Math.max(...docs.map((d) => d.workers)),
    units: docs[0]!.units,
    sizes: buildSizeBreakdown(readSavepointMetadata(metadataBytes, '_metadata'), sizedStatesOfStats(states)),
    timers: countTimersByOperator(states),
    ...(warnings ? { warnings } : {}),
    ...(docs[0]!.shard.ttlExpiry ? { ttlExpiry: { ...docs[0]!.shard.ttlExpiry, at: 'given' as const } } : {}),
  };
}

function stateKey(s: StateStats): string {
  return `${s.operatorId}\u0000${s.scope}\u0000${s.state}`;
}

function comparePositions(a: ScanPosition, b: ScanPosition): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** A state's statistics with its keys in the order a scan writes them (and without its place). */
function orderStateKeys(s: StateStats & { at?: ScanPosition }): StateStats {
  const { operatorId, state, scope, entries, valueBytes, partly, notRead, protobuf, valueSizes, ttl } = s;
  return {
    operatorId,
    state,
    scope,
    entries,
    valueBytes,
    ...(partly === undefined ? {} : { partly }),
    ...(notRead === undefined ? {} : { notRead }),
    ...(protobuf === undefined ? {} : { protobuf }),
    ...(valueSizes === undefined ? {} : { valueSizes }),
    ...(ttl === undefined ? {} : { ttl }),
  };
}
