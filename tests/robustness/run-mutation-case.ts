/**
 * Runs one mutation case and judges it: success, or only DecodeErrors that name a file, an offset
 * (except `missing-file`: an absent file has no byte to point at) and say what went wrong. Any other exception, a case over the hang guard (2 s) or a memory jump
 * above 256 MiB (ArrayBuffer growth or peak-RSS growth during the case) is a failure.
 */
import { isDecodeError } from '../../src/core/io';
import type { MutationCase } from './build-mutation-cases';
import type { ReportedError } from './run-decode-pipelines';

export const HANG_GUARD_MS = 2000;
export const MEMORY_LIMIT_BYTES = 256 * 1024 * 1024;

export interface CaseResult {
  ok: boolean;
  /** failure description with input, mutation and stack; undefined when ok */
  failure?: string;
  decodeErrors: number;
}

/** Why a DecodeError does not meet the bar, or undefined when it does. */
export function judgeDecodeError(e: ReportedError): string | undefined {
  if (typeof e.file !== 'string' || e.file === '') return 'DecodeError names no file';
  // a state file that is absent has no byte to point at: the error names the file and who references it
  const needsOffset = e.code !== 'missing-file';
  if (needsOffset && (typeof e.offset !== 'number' || !Number.isInteger(e.offset) || e.offset < 0)) return 'DecodeError names no byte offset';
  if (e.detail.trim() === '' || e.message.trim() === '') return 'DecodeError has an empty message';
  return undefined;
}

export async function runMutationCase(c: MutationCase): Promise<CaseResult> {
  const label = `${c.input} :: ${c.mutation}`;
  const before = process.memoryUsage().arrayBuffers;
  const rssBefore = process.resourceUsage().maxRSS * 1024;
  const started = process.cpuUsage();
  let failure: string | undefined;
  let decodeErrors = 0;
  try {
    const outcome = await c.run();
    decodeErrors = outcome.errors.length;
    for (const e of outcome.errors) {
      const why = judgeDecodeError(e);
      if (why) {
        failure = `${label}: ${why} (code ${e.code}): ${e.message}\n${e.stack ?? ''}`;
        break;
      }
    }
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    failure = `${label}: ${isDecodeError(e) ? 'DecodeError escaped the pipeline' : `${err.name} instead of a DecodeError`}: ${err.message}\n${err.stack ?? ''}`;
  }
  // CPU time of this process, not wall time: other work on a shared machine must not trip the guard
  const cpu = process.cpuUsage(started);
  const elapsed = (cpu.user + cpu.system) / 1000;
  const grown = process.memoryUsage().arrayBuffers - before;
  const rssGrown = process.resourceUsage().maxRSS * 1024 - rssBefore;
  if (!failure && elapsed > HANG_GUARD_MS) failure = `${label}: took ${Math.round(elapsed)} ms of CPU (hang guard ${HANG_GUARD_MS} ms)`;
  if (!failure && (grown > MEMORY_LIMIT_BYTES || rssGrown > MEMORY_LIMIT_BYTES)) {
    failure = `${label}: memory grew by ${Math.round(Math.max(grown, rssGrown) / 1048576)} MiB during the case (limit 256 MiB)`;
  }
  return failure ? { ok: false, failure, decodeErrors } : { ok: true, decodeErrors };
}
