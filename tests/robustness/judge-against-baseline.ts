/**
 * The key property of the structure-aware fuzz suites over decoded answers: a mutated input's run ends
 * in exit 0, 1 or 2 (2 with a located message), with no stack trace, within the case's time and memory
 * bounds — and its answer is the unmutated input's unless the run itself says it is not (an error, a
 * state partly decoded or not read, a value whose decoding failed). A different answer that nothing
 * flags is a silent wrong answer.
 */
import { isDeepStrictEqual } from 'node:util';
import { judgeNoInternalError, type CliRun } from './run-cli-cases';

/** What a command answered, and why (if at all) the run says its answer is not whole. */
export interface AnswerView {
  answer: unknown;
  /** the run's own error or partial status, in words; undefined when it presents its answer as whole */
  flagged: string | undefined;
}

export type ViewAnswer = (run: CliRun) => AnswerView;

/** Why a run breaks the property (or undefined when it holds), given the answer of the unmutated input. */
export function judgeAgainstBaseline(run: CliRun, baseline: unknown, view: ViewAnswer): string | undefined {
  const why = judgeNoInternalError(run);
  if (why) return why;
  if (run.code === 2) return undefined;
  if (run.stdoutLength > run.stdout.length) return `the answer is longer than the runner keeps (${run.stdoutLength} characters): shorten the command`;
  let seen: AnswerView;
  try {
    seen = view(run);
  } catch (e) {
    return `exit ${run.code} with an answer that cannot be read (${e instanceof Error ? e.message : String(e)}): ${run.stdout.slice(0, 200)}`;
  }
  if (seen.flagged !== undefined) return undefined;
  if (isDeepStrictEqual(seen.answer, baseline)) return undefined;
  return `a different answer than the unmutated input's, with no error or partial status (exit ${run.code}): ${firstDifference(baseline, seen.answer)}`;
}

/** The first path where two JSON-like values differ, with both sides (shortened). */
export function firstDifference(a: unknown, b: unknown, at = '$'): string {
  if (isDeepStrictEqual(a, b)) return '';
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (!isDeepStrictEqual(a[i], b[i])) return firstDifference(a[i], b[i], `${at}[${i}]`);
    return `${at}: ${a.length} items, now ${b.length}`;
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const x = (a as Record<string, unknown>)[k];
      const y = (b as Record<string, unknown>)[k];
      if (!isDeepStrictEqual(x, y)) return firstDifference(x, y, `${at}.${k}`);
    }
  }
  return `${at}: ${JSON.stringify(a)?.slice(0, 160)} → ${JSON.stringify(b)?.slice(0, 160)}`;
}

/** A value's JSON with the byte positions dropped (a mutation that inserts or removes bytes moves them). */
export function dropPositions(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropPositions);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'offset' || k === 'frame' || k === 'file' || k === 'valueOffset' || k === 'valueLength' || k === 'keyOffset') continue;
    out[k] = dropPositions(x);
  }
  return out;
}

/** `dump --json`: the entries without byte positions; flagged when a value's decoding failed or stderr warns. */
export const viewDump: ViewAnswer = (run) => {
  const parsed = JSON.parse(run.stdout) as { entries: unknown[] };
  const failed = run.stdout.includes('"decodeFailed": true');
  const flagged = failed ? 'a value whose decoding failed' : run.stderr.trim() !== '' ? `stderr: ${run.stderr.split('\n')[0]}` : undefined;
  return { answer: dropPositions(parsed.entries), flagged };
};

interface InspectJson {
  errors: unknown[];
  operators: { id: string; uid?: string | null; states: { name: string; status: string; decoded?: string; entries?: number; kryo?: InspectKryo[] | null }[] }[];
}

interface InspectKryo {
  path: string;
  typeClass: string;
  protobuf: unknown;
}

/** `inspect --json`: every state's status, decoding and entry count (and its Kryo details); flagged by errors or a state not decoded fully. */
export const viewInspect: ViewAnswer = (run) => {
  const parsed = JSON.parse(run.stdout) as InspectJson;
  // of the Kryo details, what is derived (the Protobuf recognition); the registrations are listed as the snapshot has them
  const kryo = (k: InspectKryo[] | null | undefined) => (k ? k.map((x) => ({ path: x.path, typeClass: x.typeClass, protobuf: x.protobuf })) : null);
  const states = parsed.operators.flatMap((op) =>
    op.states.map((s) => ({ operator: op.uid ?? op.id, name: s.name, status: s.status, decoded: s.decoded, entries: s.entries, kryo: kryo(s.kryo) })),
  );
  const notWhole = states.find((s) => s.status !== 'ok' || s.decoded !== 'fully');
  const flagged =
    parsed.errors.length > 0 ? `${parsed.errors.length} error(s)` : notWhole ? `${notWhole.name}: ${notWhole.status}/${notWhole.decoded}` : undefined;
  return { answer: states, flagged };
};

interface CheckJson {
  verdict: string;
  summary: Record<string, number>;
  states: { operator: string; state: string; verdict: string; reason?: string; firstIncompatibility: { ruleId: string } | null }[];
}

/**
 * `check --format json`: the verdict, the summary and each state's verdict and first rule; flagged when a state's
 * reason names a located error or a header that could not be decided (the report's own partial status).
 */
export const viewCheck: ViewAnswer = (run) => {
  const parsed = JSON.parse(run.stdout) as CheckJson;
  const states = parsed.states.map((s) => ({ operator: s.operator, state: s.state, verdict: s.verdict, rule: s.firstIncompatibility?.ruleId ?? null }));
  // a located error (`— at <file>, offset N`) or a header that could not be decided
  const unread = parsed.states.find((s) => /— at [^\n]*offset \d+|not decided|could not|not read|unreadable/i.test(s.reason ?? ''));
  return { answer: { verdict: parsed.verdict, summary: parsed.summary, states }, flagged: unread ? `${unread.state}: ${unread.reason}` : undefined };
};
