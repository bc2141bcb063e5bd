/**
 * `stats <savepoint> [--workers N] [--every-key-group N | --limit N] [--format text|json] [--quiet]`: whole-state
 * statistics of every state (entries, value bytes, and the Protobuf structural scan: values,
 * payload bytes, depth, unknown fields, large/aliased values, value findings), scanned in parallel
 * worker threads, optionally on a sample.
 */
import { MAX_DESCRIPTOR_BYTES } from '../../core/protobuf';
import { describeProtobufStateScan } from '../../core/compat';
import type { StateSample } from '../../core/flink';
import { newestTtlAccess, parseTtlAt as parseTtlAtValue, parseTtlDuration as parseTtlDurationValue, type TtlExpiry } from '../../core/report';
import { CliUsageError, EXIT_OK, type CliCommand } from '../cli-types';
import { formatJsonDocument, METADATA_OPTION, pathMapUsage, parseFormat, savepointInputOptions, takeOnePositional, TEXT_OR_JSON } from '../parse-cli-values';
import { readUserSchema, USER_SCHEMA_OPTIONS, USER_SCHEMA_USAGE } from '../commands/read-user-schema';
import { countScanWorkers, MAX_SCAN_WORKERS } from './count-scan-workers';
import { formatStatsText } from './format-stats-text';
import { buildStatsShard } from './merge-stats-shards';
import { runParallelScan, type ParallelScanResult } from './run-parallel-scan';
import { parseKeyGroupRange, parseOperatorStateFlag, sha256Hex } from './shard-identity';

export const statsCommand: CliCommand = {
  name: 'stats',
  summary: 'whole-state statistics (entries, sizes, Protobuf structure) scanned in parallel, optionally sampled',
  usage: [
    'Usage: savepoint-inspector stats <savepoint folder | _metadata | .zip/.tar/.tar.gz | http(s), s3://, abfss:// / wasbs:// or gs:// URL> [options]',
    '',
    'Options:',
    '  --workers N          worker threads (default 2, at most 64; a .tar.gz is scanned in one)',
    '  --every-key-group N  sample: read only key groups 0, N, 2N, … of keyed state',
    '  --limit N            sample: only the first N entries of each state (was --first)',
    '  --format F           text (default) or json: the statistics as {schemaVersion, …}',
    '  --key-groups A-B     a key-group shard (inclusive): only these key groups of keyed state; json: a shard file for merge-stats',
    '  --operator-state yes|no  with --key-groups: read the operator state in this shard (default: yes for the shard of key group 0)',
    "  --ttl DURATION       the states' time-to-live (not in the savepoint), e.g. 7d, 12h, 30m, 45s, 500ms: count the TTL values expired",
    '  --ttl-at TIME        with --ttl: the time they are judged at, ISO 8601 (2026-12-01T00:00:00Z) or epoch ms (default: the newest',
    "                       access time of the savepoint's TTL values, read in a first pass; a --key-groups shard needs it given)",
    ...USER_SCHEMA_USAGE,
    '  --metadata PATH      which savepoint of an input holding several (its _metadata path in it, or its folder)',
    ...pathMapUsage(23),
    '  -h, --help           show this help',
  ].join('\n'),
  formats: TEXT_OR_JSON,
  inputs: { positionals: true, options: ['descriptors', 'job-jar', 'with'], limits: { descriptors: MAX_DESCRIPTOR_BYTES } },
  quiet: 'text: the first line, the sample line, and each state not read in whole, error and warning',
  options: {
    ...METADATA_OPTION,
    workers: { type: 'string' },
    'every-key-group': { type: 'string' },
    limit: { type: 'string' },
    format: { type: 'string' },
    'key-groups': { type: 'string' },
    'operator-state': { type: 'string' },
    ttl: { type: 'string' },
    'ttl-at': { type: 'string' },
    ...USER_SCHEMA_OPTIONS,
  },
  async run({ values, positionals }, io) {
    const savepoint = takeOnePositional(positionals, 'expected a savepoint');
    const requested = parsePositive(values['workers'], '--workers') ?? 2;
    if (requested > MAX_SCAN_WORKERS) throw new CliUsageError(`--workers must be at most ${MAX_SCAN_WORKERS}, found ${requested}`);
    const every = parsePositive(values['every-key-group'], '--every-key-group');
    const first = parsePositive(values['limit'], '--limit');
    if (every !== undefined && first !== undefined) throw new CliUsageError('use either --every-key-group or --limit, not both');
    const format = parseFormat(values['format'], TEXT_OR_JSON);
    const keyGroupRange = parseKeyGroupRange(values['key-groups']);
    const operatorState = parseOperatorStateFlag(values['operator-state']);
    if (operatorState !== undefined && keyGroupRange === undefined) throw new CliUsageError('--operator-state needs --key-groups A-B');
    if (keyGroupRange !== undefined && first !== undefined)
      throw new CliUsageError('use either --key-groups or --limit, not both (the first N entries of a state are not split by key group)');
    const ttlMs = values['ttl'] === undefined ? undefined : parseTtlDuration(values['ttl']);
    const ttlAt = values['ttl-at'] === undefined ? undefined : parseTtlAt(values['ttl-at']);
    if (ttlAt !== undefined && ttlMs === undefined) throw new CliUsageError('--ttl-at needs --ttl DURATION (the time-to-live is not in the savepoint)');
    if (ttlMs !== undefined && ttlAt === undefined && keyGroupRange !== undefined)
      throw new CliUsageError(
        "--ttl with --key-groups needs --ttl-at: the default, the newest access time of the whole savepoint's TTL values, is known only after every shard (give every shard the same --ttl-at)",
      );
    // after every option is checked: a usage error reads nothing
    const workers = await countScanWorkers(savepoint, requested);
    const sample: StateSample | undefined =
      every !== undefined ? { kind: 'key-groups', every } : first !== undefined ? { kind: 'first-entries', count: first } : undefined;
    const kryoSchema = await readUserSchema(values);
    const scan = (ttlExpiry: TtlExpiry | undefined) =>
      runParallelScan(savepoint, {
        ...savepointInputOptions(values, io),
        workers,
        ...(sample ? { sample } : {}),
        ...(kryoSchema ? { kryoSchema } : {}),
        ...(keyGroupRange ? { keyGroupRange } : {}),
        ...(operatorState === undefined ? {} : { operatorState }),
        ...(ttlExpiry ? { ttlExpiry } : {}),
      });
    let stats: ParallelScanResult = await scan(ttlMs !== undefined && ttlAt !== undefined ? { ttlMs, atMs: ttlAt } : undefined);
    if (ttlMs !== undefined) stats = await judgeTtlExpiry(stats, ttlMs, ttlAt, scan);
    if (format === 'json' && stats.shard) {
      // a shard file: the raw statistics and what merge-stats checks and orders by
      const schema = kryoSchema ? sha256Hex(kryoSchema.bytes) : null;
      io.stdout(formatJsonDocument({ ...buildStatsShard(stats, stats.shard, schema, sample) }));
      return EXIT_OK;
    }
    io.stdout(format === 'json' ? formatJsonDocument(describeStats(stats)) : formatStatsText(savepoint, stats, { quiet: values['quiet'] === true }));
    return EXIT_OK;
  },
};

/** The statistics with the scan's value findings worded by compat's registry, as the text words them. */
export function describeStats(stats: ParallelScanResult) {
  return { ...stats, states: stats.states.map((s) => (s.protobuf ? { ...s, protobuf: describeProtobufStateScan(s.protobuf) } : s)) };
}

/**
 * The statistics with `ttlExpiry` said. Without `--ttl-at` the time is the newest access time of any TTL
 * value (Flink stamps values with the wall clock, so the savepoint was taken at or after it; `_metadata`
 * records no time): known only after a first scan, so the savepoint is scanned again against it (the
 * expired counts of one pass could not be exact over several workers). `bytesRead` adds both passes.
 */
async function judgeTtlExpiry(
  first: ParallelScanResult,
  ttlMs: number,
  given: number | undefined,
  scan: (e: TtlExpiry) => Promise<ParallelScanResult>,
): Promise<ParallelScanResult> {
  if (given !== undefined) return { ...first, ttlExpiry: { ttlMs, atMs: given, at: 'given' } };
  const newest = newestTtlAccess(first.states);
  if (newest === null) return { ...first, ttlExpiry: { ttlMs, atMs: null, at: 'newest-access' } };
  const second = await scan({ ttlMs, atMs: newest });
  return { ...second, bytesRead: first.bytesRead + second.bytesRead, ttlExpiry: { ttlMs, atMs: newest, at: 'newest-access' } };
}

/** `--ttl`: core/report's parseTtlDuration (the app's TTL input takes the same). */
export function parseTtlDuration(v: unknown): number {
  const n = parseTtlDurationValue(v);
  if (n === null) throw new CliUsageError(`--ttl expects a time-to-live such as 7d, 12h, 30m, 45s or 500ms (at least 1 ms), found '${String(v)}'`);
  return n;
}

/** `--ttl-at`: core/report's parseTtlAt, epoch milliseconds or an ISO 8601 date-time with its zone (Z or ±hh:mm). */
export function parseTtlAt(v: unknown): number {
  const n = parseTtlAtValue(v);
  if (n === null) throw new CliUsageError(`--ttl-at expects an ISO 8601 time with its zone (2026-12-01T00:00:00Z) or epoch milliseconds, found '${String(v)}'`);
  return n;
}

function parsePositive(v: unknown, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || !/^\d+$/.test(v) || n < 1) throw new CliUsageError(`${flag} expects a whole number of at least 1, found '${String(v)}'`);
  return n;
}
