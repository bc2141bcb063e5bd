/**
 * SARIF 2.1.0 (the OASIS static-analysis format GitHub code scanning reads): one run, one result per
 * rejected finding and per value warning, and one per state that has none, so that every state the
 * report names is in the log (a passing state as kind `pass`, a state that is not Protobuf as
 * `notApplicable`, both level `none`). Each result names its rule (`ruleId`, `ruleIndex` into
 * `tool.driver.rules`, which lists exactly the rules the results use: the registry's ids of
 * docs/rules.md with their one-line summary, and the report-level ids below) and is located in the
 * savepoint input (the descriptor sets for `compare`) with the state, and the finding's path, as a
 * logical location. A failing state is level `error`, like the exit code 1 of check: incompatible,
 * not restorable, a Protobuf state not checked, an inferred verdict; the values not read and value
 * warnings are `warning`.
 */
import { getRule } from '../compat';
import { describeStateTitle, describeVerdict, listInferredLines } from './describe-state';
import type { CompatibilityReport, ReportState } from './report-types';

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

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  kind: Kind;
  level: Level;
  message: { text: string };
  locations: { physicalLocation?: { artifactLocation: { uri: string } }; logicalLocations: { name: string; fullyQualifiedName: string; kind: string }[] }[];
}

export function formatSarif(report: CompatibilityReport): string {
  const ruleIds: string[] = [];
  const indexOf = (id: string): number => {
    const at = ruleIds.indexOf(id);
    if (at >= 0) return at;
    ruleIds.push(id);
    return ruleIds.length - 1;
  };
  const input = report.inputs.find((f) => f.role === (report.subject === 'descriptor-sets' ? 'descriptors' : 'savepoint')) ?? report.inputs.find((f) => f.role === 'job-jar');
  const results: SarifResult[] = [];
  const add = (s: ReportState, ruleId: string, kind: Kind, level: Level, text: string, path?: string): void => {
    const logical = logicalName(s);
    results.push({
      ruleId,
      ruleIndex: indexOf(ruleId),
      kind,
      level,
      message: { text },
      locations: [
        {
          ...(input ? { physicalLocation: { artifactLocation: { uri: toUri(input.name) } } } : {}),
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
      for (const f of rejected) add(s, f.ruleId, 'fail', 'error', `${title}: ${f.message}`, f.path || undefined);
      if (rejected.length === 0) {
        const text = [s.firstIncompatibility?.message ?? s.reason ?? s.verdict, s.failureText ?? ''].filter(Boolean).join('\n');
        add(s, s.firstIncompatibility?.ruleId ?? (s.verdict === 'incompatible' ? 'STATE_INCOMPATIBLE' : 'STATE_NOT_RESTORABLE'), 'fail', 'error', `${title}: ${text}`);
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
      add(s, 'VALUES_NOT_READ', 'fail', 'warning', `${describeStateTitle(s)} (${s.role}): values not read: ${s.valuesNotRead}. No value warning was checked for this state.`);
      told = true;
    }
    for (const w of s.warnings) {
      add(s, w.ruleId, 'fail', 'warning', `${describeStateTitle(s)} (${s.role}): ${w.message}${w.keys.length > 0 ? ` Keys: ${w.keys.join(', ')}` : ''}`);
      told = true;
    }
    if (!told) {
      if (s.verdict === 'compatible') add(s, 'STATE_COMPATIBLE', 'pass', 'none', title);
      else add(s, 'STATE_NOT_PROTOBUF', 'notApplicable', 'none', `${describeStateTitle(s)} (${s.role}): ${s.reason ?? 'not a Protobuf state'}`);
    }
  }
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: report.tool.name,
            version: report.tool.version,
            rules: ruleIds.map((id) => ({ id, shortDescription: { text: describeRule(id) } })),
          },
        },
        properties: { target: report.target, verdict: report.verdict, summary: report.summary },
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
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
