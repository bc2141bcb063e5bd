/**
 * The changelog source: a subtask whose changelog's changes are replayed onto its materialized
 * snapshot's entries (replay-changelog-entries.ts), those read by the layout sources (layout.ts) with
 * the scan's header cache. One entry at a time.
 */
import { DecodeError } from '../../../io';
import { throwIfCancelled } from '../../cancel-signal';
import type { ChangelogReplay, SubtaskKeyedStream } from '../../headers/read-subtask-state-headers';
import { decodeChangelogChanges } from '../../keyed/decode-changelog-changes';
import { KeyedEntryRun } from '../../keyed/keyed-entry-run';
import { replayChangelogEntries, type ReplayContext } from '../../keyed/replay-changelog-entries';
import type { OperatorState } from '../../metadata/metadata-types';
import type { StateEntry } from '../../savepoint/inspection-types';
import type { ValueModeSource } from '../../snapshots/snapshot-types';
import type { ScanPart } from '../scan-types';
import { readLayoutRuns } from './layout';
import { isEntryBatch, type EntryRun, type ScanContext, type SourcePart } from './scan-context';

/**
 * The subtask's states not replayable as unreadable parts (each with its reason), then the replayed
 * states in two parts: fully decoded, and those whose keys are kept as bytes (`incomplete`: why).
 * Entries are the materialized snapshot's with the changes applied.
 */
export async function* readChangelogReplayParts(
  ctx: ScanContext,
  op: OperatorState,
  subtask: number,
  keyed: SubtaskKeyedStream,
  replay: ChangelogReplay,
): AsyncGenerator<SourcePart> {
  const { opened, values, sample } = ctx;
  const header = keyed.header;
  // a lost META record may have been any state's: the subtask's keyed stream is not read (reported as its error)
  if (replay.failure !== undefined)
    throw new DecodeError({ code: 'invalid-value', detail: replay.failure, file: opened.metadataFile, path: [`subtask ${subtask}`] });
  const names = [...new Set([...(header?.states ?? []), ...keyed.changelog!.states].map((s) => s.name))].filter((n) => ctx.wanted(n));
  if (names.length === 0) return;
  const outcome = (n: string) => replay.outcomes.get(n) ?? { kind: 'replayed' as const };
  for (const n of names) {
    const o = outcome(n);
    if (o.kind !== 'unreadable') continue;
    const part: ScanPart = { operator: op, subtask, kind: 'keyed', format: 'changelog', states: [n], broadcastStates: [] };
    yield {
      part,
      unreadable: o.reason,
      error: () => new DecodeError({ code: 'unsupported-format', detail: o.reason, file: opened.metadataFile, path: [`subtask ${subtask}`, n] }),
    };
  }
  const full = names.filter((n) => outcome(n).kind === 'replayed');
  const partial = names.filter((n) => outcome(n).kind === 'partial');
  const only = ctx.keyGroups;
  const shard = ctx.keyGroupRange;
  const keyGroup = (kg: number) =>
    shard !== undefined && (kg < shard.start || kg > shard.end)
      ? false
      : only !== undefined
        ? only.has(kg)
        : sample?.kind === 'key-groups'
          ? kg % sample.every === 0
          : true;
  // entries of a key group with changes are held before they are visited: read them decoded, not stepped over
  const held: ValueModeSource = {
    get mode() {
      return values.mode === 'skip' ? 'decode' : values.mode;
    },
  };
  for (const [group, incomplete] of [
    [full, undefined],
    [partial, partial.length > 0 ? (outcome(partial[0]!) as { reason: string }).reason : undefined],
  ] as const) {
    if (group.length === 0) continue;
    const part: ScanPart = {
      operator: op,
      subtask,
      kind: 'keyed',
      format: 'changelog',
      states: group,
      broadcastStates: [],
      ...(incomplete === undefined ? {} : { incomplete }),
    };
    const states = new Set(group);
    const materialized =
      header && group.some((n) => header.states.some((s) => s.name === n)) ? readLayoutRuns(ctx, op, subtask, keyed, { states, values: held }) : undefined;
    const seen = new Set<number>();
    const runs = replayEntries(ctx, replay, states, materialized, { operatorId: op.id, subtask, file: opened.metadataFile, keyGroup }, seen);
    const done = () => {
      ctx.result.keyGroupsWithData += seen.size;
      ctx.result.keyGroupsRead += seen.size;
    };
    yield { part, runs, done };
  }
}

/**
 * The replayed entries of the part's states, one at a time, each key group given counted in `seen`. The
 * changes are inline in `_metadata` (small): decoded at once, when the part's first entry is asked for
 * (after the visitor saw the part), in the mode of that moment; a page that steps over values first still
 * shows its rows decoded.
 */
async function* replayEntries(
  ctx: ScanContext,
  replay: ChangelogReplay,
  states: ReadonlySet<string>,
  materialized: AsyncIterable<EntryRun> | undefined,
  replayCtx: ReplayContext,
  seen: Set<number>,
): AsyncGenerator<StateEntry> {
  const changes = await decodeChangelogChanges(replay.input, ctx.values.mode === 'skip' ? 'decode' : ctx.values.mode);
  for (const n of changes.keys()) if (!states.has(n)) changes.delete(n);
  for await (const e of replayChangelogEntries(materialized && flattenRuns(materialized), changes, replayCtx)) {
    throwIfCancelled(ctx.signal);
    seen.add(e.keyGroup);
    yield e;
  }
}

/** The entries of the runs one by one, in order (for the replay, which holds some of them). */
async function* flattenRuns(runs: AsyncIterable<EntryRun>): AsyncGenerator<StateEntry> {
  for await (const run of runs) {
    if (run instanceof KeyedEntryRun || isEntryBatch(run)) yield* run;
    else yield run;
  }
}
