/** A subtask's managed keyed state as parts: its stream in its layout's source, a changelog's replay, and what is not readable here. */
import { DecodeError, isDecodeError } from '../../../io';
import type { OperatorState, SubtaskState } from '../../metadata/metadata-types';
import type { ScanPart } from '../scan-types';
import { readChangelogReplayParts } from './changelog';
import { readLayoutRuns } from './layout';
import { readKeyedStream, type ScanContext, type SourcePart } from './scan-context';
import { readSubtaskRawTimers } from '../../keyed/read-raw-keyed-timers';

/**
 * The parts of the subtask's keyed stream with wanted states: a changelog whose changes are replayed
 * (changelog.ts); else the stream's states read by its layout's source, or unreadable (a RocksDB
 * native handle without meta data, an undetermined layout), then the states only a changelog names
 * (not read here).
 */
export async function* readKeyedParts(ctx: ScanContext, op: OperatorState, subtask: SubtaskState): AsyncGenerator<SourcePart> {
  yield* readManagedKeyedParts(ctx, op, subtask);
  yield* readRawTimerParts(ctx, op, subtask);
}

/**
 * The timers Flink 1.8–1.9's heap timer service wrote to the subtask's raw keyed state (read-raw-keyed-timers.ts),
 * as one part whose states are `_timer_state/event_…` and `_timer_state/processing_…`: one key group's timers at a
 * time, under the scan's key-group selection, shard and sample.
 */
async function* readRawTimerParts(ctx: ScanContext, op: OperatorState, subtask: SubtaskState): AsyncGenerator<SourcePart> {
  let raw: Awaited<ReturnType<typeof readSubtaskRawTimers>>;
  try {
    raw = await readSubtaskRawTimers(ctx.opened, op, subtask, ctx.registry);
  } catch (e) {
    if (!isDecodeError(e) || e.code === 'cancelled') throw e;
    // raw keyed state that is not timers (or whose first key group is corrupt): no state is listed for it
    // (inspect names it among the streams not read); a scan without the `unreadable` hook throws it
    const part: ScanPart = { operator: op, subtask: subtask.index, kind: 'keyed', format: 'heap', states: [], broadcastStates: [] };
    yield { part, unreadable: e.message, error: () => e };
    return;
  }
  if (!raw || !raw.states.some((s) => ctx.wanted(s.meta.name))) return;
  const part: ScanPart = {
    operator: op,
    subtask: subtask.index,
    kind: 'keyed',
    format: 'heap',
    states: raw.states.map((s) => s.meta.name),
    broadcastStates: [],
  };
  const range = ctx.keyGroupRange;
  const sample = ctx.sample;
  const selected = (kg: number) => (ctx.keyGroups === undefined || ctx.keyGroups.has(kg)) && (range === undefined || (kg >= range.start && kg <= range.end));
  const sampled = (kg: number) => selected(kg) && (sample?.kind !== 'key-groups' || kg % sample.every === 0);
  const timers = raw.only(sampled);
  // as the managed keyed sources count them: the selection's key groups with data, and those the sample reads
  ctx.result.keyGroupsWithData += raw.keyGroupsWithData.filter(selected).length;
  ctx.result.keyGroupsRead += raw.keyGroupsWithData.filter(sampled).length;
  async function* runs() {
    for await (const { entries } of timers.keyGroups()) {
      if (ctx.isPartFull(part)) return;
      yield entries.filter((e) => ctx.wanted(e.state));
    }
  }
  yield { part, runs: runs() };
}

async function* readManagedKeyedParts(ctx: ScanContext, op: OperatorState, subtask: SubtaskState): AsyncGenerator<SourcePart> {
  const keyed = await readKeyedStream(ctx, op, subtask);
  if (!keyed) return;
  const header = keyed.header;
  const replay = keyed.changelog?.replay;
  if (replay) {
    yield* readChangelogReplayParts(ctx, op, subtask.index, keyed, replay);
    return;
  }
  if (header && header.states.some((s) => ctx.wanted(s.name))) {
    const incomplete = keyed.changelog?.reason;
    const part: ScanPart = {
      operator: op,
      subtask: subtask.index,
      kind: 'keyed',
      format: keyed.format,
      states: header.states.map((s) => s.name),
      broadcastStates: [],
      ...(incomplete === undefined ? {} : { incomplete }),
    };
    const unreadable = keyed.unreadable;
    if (unreadable !== undefined) {
      const error = () => {
        const path = [`subtask ${subtask.index}`, header.states.find((s) => ctx.wanted(s.name))!.name];
        return (keyed.unreadableError ?? new DecodeError({ code: 'unsupported-format', detail: unreadable })).withContext({ pathPrefix: path });
      };
      yield { part, unreadable, error };
    } else {
      const runs = readLayoutRuns(ctx, op, subtask.index, keyed, { states: ctx.names, values: ctx.values, scan: part });
      if (runs !== undefined) yield { part, runs };
    }
  }
  // the states only a changelog names: not read here
  const changelog = keyed.changelog;
  if (changelog && changelog.states.some((s) => ctx.wanted(s.name))) {
    const part: ScanPart = {
      operator: op,
      subtask: subtask.index,
      kind: 'keyed',
      format: 'changelog',
      states: changelog.states.map((s) => s.name),
      broadcastStates: [],
    };
    const error = () => {
      const first = changelog.states.find((s) => ctx.wanted(s.name))!;
      return new DecodeError({
        code: 'unsupported-format',
        detail: changelog.reason,
        file: ctx.opened.metadataFile,
        path: [`subtask ${subtask.index}`, first.name],
      });
    };
    yield { part, unreadable: changelog.reason, error };
  }
}
