/** A subtask's managed keyed state as parts: its stream in its layout's source, a changelog's replay, and what is not readable here. */
import { DecodeError } from '../../../io';
import type { OperatorState, SubtaskState } from '../../metadata/metadata-types';
import type { ScanPart } from '../scan-types';
import { readChangelogReplayParts } from './changelog';
import { readLayoutRuns } from './layout';
import { readKeyedStream, type ScanContext, type SourcePart } from './scan-context';

/**
 * The parts of the subtask's keyed stream with wanted states: a changelog whose changes are replayed
 * (changelog.ts); else the stream's states read by its layout's source, or unreadable (a RocksDB
 * native handle without meta data, an undetermined layout), then the states only a changelog names
 * (not read here).
 */
export async function* readKeyedParts(ctx: ScanContext, op: OperatorState, subtask: SubtaskState): AsyncGenerator<SourcePart> {
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
