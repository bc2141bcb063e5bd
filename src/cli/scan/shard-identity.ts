/**
 * What a key-group shard's file says about where it came from, so a merge refuses shards that do not
 * make one whole: the savepoint (its checkpoint id and the SHA-256 of its `_metadata`), the schema the
 * values were scanned with (the SHA-256 of `--descriptors`), the tool version, and the key groups
 * (`--key-groups A-B`, inclusive as Flink's KeyGroupRange, within [0, maxParallelism)).
 */
import { createHash } from 'node:crypto';
import packageJson from '../../../package.json' with { type: 'json' };
import type { OpenedSavepoint } from '../../core/flink';
import { CliUsageError } from '../cli-types';

export interface SavepointIdentity {
  checkpointId: string;
  metadataSha256: string;
}

export interface KeyGroupRange {
  start: number;
  /** inclusive */
  end: number;
}

export const TOOL_VERSION: string = packageJson.version;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function identifySavepoint(opened: OpenedSavepoint): SavepointIdentity {
  return { checkpointId: String(opened.metadata.checkpointId), metadataSha256: sha256Hex(opened.metadataBytes) };
}

export function describeSavepointIdentity(id: SavepointIdentity): string {
  return `checkpoint ${id.checkpointId}, _metadata sha256 ${id.metadataSha256.slice(0, 12)}`;
}

/** `--key-groups A-B` (whole numbers, A <= B). */
export function parseKeyGroupRange(v: unknown): KeyGroupRange | undefined {
  if (v === undefined) return undefined;
  const m = typeof v === 'string' ? /^(\d+)-(\d+)$/.exec(v) : null;
  if (!m) throw new CliUsageError(`--key-groups expects a key-group range A-B (inclusive, e.g. 0-63), found '${String(v)}'`);
  const start = Number(m[1]);
  const end = Number(m[2]);
  if (end < start) throw new CliUsageError(`--key-groups expects A <= B in A-B, found ${start}-${end}`);
  return { start, end };
}

/** `--operator-state yes|no` (default: the shard of key group 0 reads it). */
export function parseOperatorStateFlag(v: unknown): boolean | undefined {
  if (v === undefined) return undefined;
  if (v === 'yes' || v === 'no') return v === 'yes';
  throw new CliUsageError(`--operator-state expects yes or no, found '${String(v)}'`);
}

/**
 * The savepoint's key groups: [0, the largest max parallelism of its operators with keyed state), or
 * of any operator when none has keyed state. A range reaching past it is a usage error (exit 2) naming the max.
 */
export function checkShardRange(opened: OpenedSavepoint, range: KeyGroupRange): number {
  const ops = opened.metadata.operators;
  const keyed = ops.filter((o) => o.subtasks.some((s) => s.managedKeyedState !== null));
  const max = Math.max(0, ...(keyed.length > 0 ? keyed : ops).map((o) => o.maxParallelism));
  if (range.end >= max)
    throw new CliUsageError(`--key-groups ${range.start}-${range.end} is outside this savepoint's key groups 0-${max - 1} (its max parallelism is ${max})`);
  return max;
}
