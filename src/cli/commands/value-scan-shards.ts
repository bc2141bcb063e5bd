/**
 * `check`'s value scan in key-group shards: `check --values-only --key-groups A-B --output FILE` writes
 * one shard's value-scan results (each Protobuf state's value-warning tally, or why its values were not
 * read), and `check --value-scans DIR` takes the shard files of DIR as its value scan (a ValueScanner):
 * the tallies of each state merged in key-group order are the whole read's (mergeStateValueTallies), so
 * the report is byte for byte the one a single machine's `check` writes. The files carry the savepoint's
 * identity, a digest of the new schema and the check's options, the tool version and the key groups;
 * shards that do not make one whole, or that are of another savepoint or check, are refused (exit 2).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  createStateValueScanner,
  evaluateSavepointStates,
  groupStatesByOperator,
  mergeStateValueTallies,
  type StateValuesNotRead,
  type StateValueTally,
  type ValueScanner,
} from '../../core/report';
import { wrongInput, type SavepointFiles } from '../../core/io';
import { formatJsonDocument } from '../parse-cli-values';
import { writeOutputFile } from '../output-failure';
import {
  checkShardRange,
  checkShardsMakeWhole,
  describeSavepointIdentity,
  identifySavepoint,
  sha256Hex,
  TOOL_VERSION,
  type KeyGroupRange,
  type NamedShard,
  type ShardHeaderBase,
  type WorkerCheckInput,
} from '../scan';

interface ValueScanHeader extends ShardHeaderBase {
  kind: 'value-scan';
}

interface ValueScanShardFile {
  shard: ValueScanHeader;
  states: { operatorId: string; state: string; result: StateValueTally | StateValuesNotRead | null }[];
}

/** The new schema and every option that shapes the value warnings, as one digest (shards of one check share it). */
export function digestCheck(check: WorkerCheckInput): string {
  const { descriptorSet, target, newSettings, newRoot, newRoots, newJavaClass, newKind } = check;
  const options = JSON.stringify({ target, newSettings, newRoot, newRoots, newJavaClass, newKind });
  const bytes = new Uint8Array(descriptorSet.bytes.length + options.length * 3);
  bytes.set(descriptorSet.bytes);
  const tail = new TextEncoder().encodeInto(options, bytes.subarray(descriptorSet.bytes.length));
  return sha256Hex(bytes.subarray(0, descriptorSet.bytes.length + tail.written));
}

/** Scans one key-group shard's values and writes its file (`check --values-only`). */
export async function writeValueScanShard(
  files: SavepointFiles,
  check: WorkerCheckInput,
  range: KeyGroupRange | undefined,
  operatorState: boolean | undefined,
  output: string,
): Promise<void> {
  const evaluated = await evaluateSavepointStates({ ...check, files });
  const opened = evaluated.opened;
  const keyGroups = range ?? { start: 0, end: Math.max(0, wholeRangeEnd(opened)) };
  const maxParallelism = checkShardRange(opened, keyGroups);
  const reads = operatorState ?? keyGroups.start === 0;
  const scanner = createStateValueScanner(evaluated, undefined, { keyGroupRange: keyGroups, operatorState: reads });
  const results = new Array<StateValueTally | StateValuesNotRead | undefined>(evaluated.protobuf.length);
  for (const indexes of groupStatesByOperator(evaluated).values()) {
    const tallies = await scanner.scanOperator(indexes.map((i) => evaluated.protobuf[i]!));
    indexes.forEach((i, k) => (results[i] = tallies[k]));
  }
  const doc: ValueScanShardFile = {
    shard: {
      kind: 'value-scan',
      toolVersion: TOOL_VERSION,
      savepoint: identifySavepoint(opened),
      schemaSha256: digestCheck(check),
      keyGroups,
      maxParallelism,
      operatorState: reads,
    },
    states: evaluated.protobuf.map((s, i) => ({ operatorId: s.found.operator.id, state: s.found.state.name, result: results[i] ?? null })),
  };
  await writeOutputFile(output, formatJsonDocument({ ...doc }));
}

/** The last key group of the savepoint (checkShardRange's max - 1), for `--values-only` without `--key-groups`. */
function wholeRangeEnd(opened: Parameters<typeof checkShardRange>[0]): number {
  const ops = opened.metadata.operators;
  const keyed = ops.filter((o) => o.subtasks.some((s) => s.managedKeyedState !== null));
  return Math.max(0, ...(keyed.length > 0 ? keyed : ops).map((o) => o.maxParallelism)) - 1;
}

/** The value scan of `check --value-scans DIR`: the shard files of DIR (every `*.json`), checked and merged. */
export function createShardFilesValueScanner(dir: string, check: WorkerCheckInput): ValueScanner {
  return {
    async scanValues(evaluated) {
      let names: string[];
      try {
        names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
      } catch (e) {
        throw wrongInput('bad-path', `cannot read the value-scan folder ${dir}: ${(e as { code?: string }).code ?? String(e)}`);
      }
      if (names.length === 0) throw wrongInput('bad-path', `expected value-scan shard files (*.json of check --values-only) in ${dir}, found none`);
      const docs = new Map<string, ValueScanShardFile>();
      for (const n of names) {
        const file = path.join(dir, n);
        docs.set(file, readValueScanShard(file, await readFile(file, 'utf8')));
      }
      const shards = checkShardsMakeWhole<ValueScanHeader>([...docs].map(([name, d]): NamedShard<ValueScanHeader> => ({ name, header: d.shard })));
      const first = shards[0]!;
      const here = identifySavepoint(evaluated.opened);
      const there = first.header.savepoint;
      if (there.checkpointId !== here.checkpointId || there.metadataSha256 !== here.metadataSha256)
        throw wrongInput(
          'shards-mismatch',
          `expected value scans of the savepoint checked, found another: ${first.name} (${describeSavepointIdentity(there)}), this check reads ${describeSavepointIdentity(here)}`,
        );
      const digest = digestCheck(check);
      if (first.header.schemaSha256 !== digest)
        throw wrongInput(
          'shards-mismatch',
          `expected value scans made with this check's schema and options, found others: ${first.name} (schema sha256 ${String(first.header.schemaSha256).slice(0, 12)}), this check's schema sha256 ${digest.slice(0, 12)}`,
        );
      const states = evaluated.protobuf.map((s) => `${s.found.operator.id}/${s.found.state.name}`);
      for (const s of shards) {
        const listed = docs.get(s.name)!.states.map((x) => `${x.operatorId}/${x.state}`);
        if (listed.join('\n') !== states.join('\n'))
          throw wrongInput(
            'shards-mismatch',
            `expected ${s.name} to hold the value scans of ${states.length} Protobuf states (${states.join(', ')}), found ${listed.length} (${listed.join(', ')})`,
          );
      }
      return evaluated.protobuf.map((_, i) => mergeStateValueTallies(shards.map((s) => docs.get(s.name)!.states[i]!.result ?? undefined)));
    },
  };
}

function readValueScanShard(name: string, text: string): ValueScanShardFile {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw wrongInput('shards-mismatch', `expected ${name} to be a value-scan shard file (check --values-only --output FILE), found no JSON`);
  }
  const shard = (doc as { shard?: { kind?: unknown; toolVersion?: unknown } } | null)?.shard;
  if (typeof shard !== 'object' || shard === null || shard.kind !== 'value-scan' || typeof shard.toolVersion !== 'string')
    throw wrongInput(
      'shards-mismatch',
      `expected ${name} to be a value-scan shard file (check --values-only --output FILE), found JSON without its "shard" header`,
    );
  return doc as ValueScanShardFile;
}
