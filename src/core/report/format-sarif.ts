/**
 * SARIF 2.1.0 (the OASIS static-analysis format GitHub code scanning reads): one run, one result per
 * rejected finding and per value warning, and one per state that has none, so that every state the
 * report names is in the log (a passing state as kind `pass`, a state that is not Protobuf as
 * `notApplicable`, both level `none`). Each result names its rule (`ruleId`, `ruleIndex` into
 * `tool.driver.rules`, which lists exactly the rules the results use: the registry's ids of
 * docs/rules.md with their one-line summary and `helpUri` to their row there, and the report-level ids
 * below) and is located in the new schema: the `.proto` file and line of the declaration it names when
 * the descriptor set carries source info (`sources`, ./locate-proto-sources.ts), else the descriptor set
 * or job jar as a whole; the state (and the finding's path) is its logical location. A failing state is
 * level `error`, like the exit code 1 of check: incompatible, not restorable, a Protobuf state not
 * checked, an inferred verdict; the values not read and value warnings are `warning`. A run whose input
 * was unusable (exit 2) is a log too (formatSarifFailure): no results, and the reason as a tool
 * execution notification of an unsuccessful invocation.
 */
import { getRule } from '../compat';
import { describeStateTitle, describeVerdict, listInferredLines } from './describe-state';
import type { ProtoSourceLocator, ProtoSourceRegion } from './locate-proto-sources';
import type { CompatibilityReport, ReportState } from './report-types';

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/**
 * Where a rule is documented: its row of docs/rules.md (an anchor named by the id) in the npm package of
 * this very version, which ships docs/rules.md.
 */
export function ruleHelpUri(tool: { name: string; version: string }, ruleId: string): string {
  return `https://unpkg.com/${tool.name}@${tool.version}/docs/rules.md#${ruleId}`;
}

/** The ids a result carries when no registry rule names it, and what each means (docs/cli.md). */
const REPORT_RULES: Readonly<Record<string, string>> = {
  STATE_INCOMPATIBLE: 'the state is incompatible with the new schema (no single rule names it)',
  STATE_NOT_RESTORABLE: 'the state cannot be restored with the target library line',
  STATE_NOT_CHECKED: 'a Protobuf state whose serializer nothing here could read: its compatibility was not checked, which fails check',
  VERDICT_INFERRED: 'the verdict is inferred from a snapshot class no reader knows (read by structure, not exact), which fails check',
  VALUES_NOT_READ: "the state's saved values could not be read: its value warnings were not checked",
  STATE_COMPATIBLE: 'the state restores with the new schema',
  STATE_NOT_PROTOBUF: 'not a Protobuf state: out of the compatibility check',
};

type Level = 'error' | 'warning' | 'note' | 'none';
type Kind = 'fail' | 'pass' | 'notApplicable';

interface PhysicalLocation {
  artifactLocation: { uri: string };
  region?: { startLine: number; startColumn: number; endLine: number; endColumn: number } | { byteOffset: number };
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  kind: Kind;
  level: Level;
  message: { text: string };
  locations: { physicalLocation?: PhysicalLocation; logicalLocations: { name: string; fullyQualifiedName: string; kind: string }[] }[];
}

export interface SarifOptions {
  /** the new schema's source info (createProtoSourceLocator of its descriptor set), when it has any */
  sources?: ProtoSourceLocator;
}

export function formatSarif(report: CompatibilityReport, options: SarifOptions = {}): string {
  const ruleIds: string[] = [];
  const indexOf = (id: string): number => {
    const at = ruleIds.indexOf(id);
    if (at >= 0) return at;
    ruleIds.push(id);
    return ruleIds.length - 1;
  };
  // the new schema as a whole: its descriptor set, else the job jar it came from
  const input = report.inputs.find((f) => f.role === 'descriptors') ?? report.inputs.find((f) => f.role === 'job-jar');
  const sources = options.sources;
  const results: SarifResult[] = [];
  const add = (s: ReportState, ruleId: string, kind: Kind, level: Level, text: string, path?: string, params?: object): void => {
    const logical = logicalName(s);
    const region = sources ? locateResult(sources, s, params) : undefined;
    const physicalLocation: PhysicalLocation | undefined = region
      ? {
          artifactLocation: { uri: toUri(region.file) },
          region: { startLine: region.startLine, startColumn: region.startColumn, endLine: region.endLine, endColumn: region.endColumn },
        }
      : input
        ? { artifactLocation: { uri: toUri(input.name) } }
        : undefined;
    results.push({
      ruleId,
      ruleIndex: indexOf(ruleId),
      kind,
      level,
      message: { text },
      locations: [
        {
          ...(physicalLocation ? { physicalLocation } : {}),
          logicalLocations: [{ name: path ?? s.state, fullyQualifiedName: path ? `${logical}/${path}` : logical, kind: path ? 'member' : 'variable' }],
        },
      ],
    });
  };
  for (const s of report.states) {
    const title = `${describeStateTitle(s)} (${s.role}): ${describeVerdict(s)}`;
    const failed = s.verdict === 'incompatible' || s.verdict === 'not-restorable';
    let told = false;
    if (failed) {
      const rejected = s.findings.filter((f) => !f.accepted);
      for (const f of rejected) add(s, f.ruleId, 'fail', 'error', `${title}: ${f.message}`, f.path || undefined, f.params);
      if (rejected.length === 0) {
        const text = [s.firstIncompatibility?.message ?? s.reason ?? s.verdict, s.failureText ?? ''].filter(Boolean).join('\n');
        add(
          s,
          s.firstIncompatibility?.ruleId ?? (s.verdict === 'incompatible' ? 'STATE_INCOMPATIBLE' : 'STATE_NOT_RESTORABLE'),
          'fail',
          'error',
          `${title}: ${text}`,
          undefined,
          s.firstIncompatibility?.params,
        );
      }
      told = true;
    }
    // a Protobuf state nothing here could read (build-report: verdict unknown, rule set none; its valuesNotRead repeats the reason)
    const unchecked = s.verdict === 'unknown' && s.ruleSet === 'none';
    if (unchecked) {
      add(s, 'STATE_NOT_CHECKED', 'fail', 'error', `${title}: ${s.reason ?? 'not checked'}`);
      told = true;
    }
    if (s.inferred !== undefined) {
      add(s, 'VERDICT_INFERRED', 'fail', 'error', [`${title}`, ...listInferredLines(s)].join('\n'));
      told = true;
    }
    if (s.valuesNotRead !== undefined && !unchecked) {
      add(
        s,
        'VALUES_NOT_READ',
        'fail',
        'warning',
        `${describeStateTitle(s)} (${s.role}): values not read: ${s.valuesNotRead}. No value warning was checked for this state.`,
      );
      told = true;
    }
    for (const w of s.warnings) {
      add(
        s,
        w.ruleId,
        'fail',
        'warning',
        `${describeStateTitle(s)} (${s.role}): ${w.message}${w.keys.length > 0 ? ` Keys: ${w.keys.join(', ')}` : ''}`,
        undefined,
        w.params,
      );
      told = true;
    }
    if (!told) {
      if (s.verdict === 'compatible') add(s, 'STATE_COMPATIBLE', 'pass', 'none', title);
      else add(s, 'STATE_NOT_PROTOBUF', 'notApplicable', 'none', `${describeStateTitle(s)} (${s.role}): ${s.reason ?? 'not a Protobuf state'}`);
    }
  }
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: report.tool.name,
            version: report.tool.version,
            rules: ruleIds.map((id) => ({ id, shortDescription: { text: describeRule(id) }, helpUri: ruleHelpUri(report.tool, id) })),
          },
        },
        invocations: [{ executionSuccessful: true }],
        properties: { target: report.target, verdict: report.verdict, summary: report.summary },
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** What an unusable input's run says (`check`/`compare --format sarif`, exit 2). */
export interface SarifFailure {
  tool: { name: string; version: string };
  /** the message the CLI prints on stderr */
  message: string;
  /** the error's code (DecodeError / UsageError), as the notification's descriptor id */
  code: string;
  exitCode: number;
  /** the input file the error is located in, and the byte offset there, when known */
  file?: string;
  offset?: number;
}

/**
 * The SARIF log of a run that ended on unusable input: one invocation, not successful, with the exit code
 * and the reason as an error notification (located in the input file, at its byte offset, when the error
 * says where); no `results` (SARIF §3.14.23: absent when the tool could not produce them), so the log never
 * reads as a run that found nothing.
 */
export function formatSarifFailure(failure: SarifFailure): string {
  const location =
    failure.file === undefined
      ? undefined
      : {
          physicalLocation: {
            artifactLocation: { uri: toUri(failure.file) },
            ...(failure.offset === undefined ? {} : { region: { byteOffset: failure.offset } }),
          },
        };
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: failure.tool.name, version: failure.tool.version } },
        invocations: [
          {
            executionSuccessful: false,
            exitCode: failure.exitCode,
            toolExecutionNotifications: [
              { level: 'error', descriptor: { id: failure.code }, message: { text: failure.message }, ...(location ? { locations: [location] } : {}) },
            ],
          },
        ],
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/**
 * The span of the new schema a result names, by its rule's params: a field or enum value (its parent and
 * number), else the message or enum, else the file; else, and when the named member is not in the new
 * schema (a removed field), the state's new root message.
 */
function locateResult(sources: ProtoSourceLocator, s: ReportState, params: object | undefined): ProtoSourceRegion | undefined {
  const p = (params ?? {}) as Record<string, unknown>;
  const parent = typeof p['message'] === 'string' ? p['message'] : typeof p['enum'] === 'string' ? p['enum'] : undefined;
  const number = typeof p['number'] === 'number' ? p['number'] : undefined;
  return (
    (parent !== undefined && number !== undefined ? sources.member(parent, number) : undefined) ??
    (parent !== undefined ? sources.declaration(parent) : undefined) ??
    (typeof p['file'] === 'string' ? sources.file(p['file']) : undefined) ??
    (s.newRoot !== undefined ? sources.declaration(s.newRoot) : undefined)
  );
}

function describeRule(id: string): string {
  return REPORT_RULES[id] ?? getRule(id as Parameters<typeof getRule>[0]).summary;
}

/** operator (uid, else id) / state / serializer role; a compare report's root message alone */
function logicalName(s: ReportState): string {
  return s.operator === '' ? s.state : `${s.operatorUid ?? s.operator}/${s.state}/${s.role}`;
}

/** An input's name as a relative URI reference (each path segment percent-encoded). */
function toUri(name: string): string {
  return /^https?:\/\//.test(name) ? name : name.split('/').map(encodeURIComponent).join('/');
}
