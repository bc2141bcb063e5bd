/**
 * The report formats over a hand-built model with hostile strings: escaping in HTML, Markdown,
 * JUnit and GitHub annotations, the HTML's CSP and absence of script, stable JSON, exit codes.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type StateCompatibility } from '../compat';
import { computeExitCode } from '.';
import { buildReport } from './build-report';
import { formatGithub } from './format-github';
import { formatHtml } from './format-html';
import { formatJson } from './format-json';
import { formatJunit } from './format-junit';
import { escapeMarkdown, formatMarkdown } from './format-markdown';
import { describeStateFindings } from './describe-state-findings';
import { formatText } from './format-text';
import { type ReportInput } from './report-types';

const HOSTILE = `<script>alert("x")</script> | 50% & 'q'\nline2`;

const TYPE_CHANGED = {
  ruleId: 'FIELD_TYPE_CHANGED',
  accepted: false,
  path: 'example.Event.count (2)',
  message: 'Field 2 (count) of example.Event changes type from INT32 to SINT32',
  params: { number: 2, name: 'count', message: 'example.Event', from: 'INT32', to: 'SINT32' },
} as const;

const compat: StateCompatibility = {
  verdict: 'incompatible',
  target: '1.x',
  ruleSet: 'directional',
  savedRoot: 'example.Event',
  newRoot: 'example.Event',
  findings: [
    {
      ruleId: 'FIELD_ADDED',
      accepted: true,
      path: 'example.Event.label (5)',
      message: 'Field 5 (label) is added to example.Event',
      params: { number: 5, name: 'label', message: 'example.Event' },
    },
    TYPE_CHANGED,
  ],
  firstIncompatibility: TYPE_CHANGED,
  failureText: 'Cannot restore …',
};

function input(states: ReportInput['states']): ReportInput {
  return {
    tool: { name: 'savepoint-inspector', version: '9.9.9' },
    inputs: [{ role: 'descriptors', name: 'new.binpb', size: 3, sha256: 'ab'.repeat(32) }],
    target: '1.x',
    newSettings: DEFAULT_SETTINGS,
    states,
  };
}

const STATES: ReportInput['states'] = [
  {
    kind: 'other',
    operator: { id: 'ffff' },
    state: 'z-state',
    role: 'VALUE_SERIALIZER',
    snapshotClass: 'x.LongSerializer',
    reason: 'not a Protobuf state: Long',
  },
  {
    kind: 'protobuf',
    operator: { id: 'aaaa', uid: 'my-uid' },
    state: HOSTILE,
    role: 'VALUE_SERIALIZER',
    snapshotClass: 'io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshot',
    compatibility: compat,
    warnings: [
      {
        ruleId: 'UNKNOWN_NUMBER_BECOMES_FIELD',
        message: 'w <b>',
        params: { count: 2, number: 9, message: 'example.Event', name: 'w <b>' },
        count: 2,
        keys: ['k<1>', 'k2'],
      },
    ],
  },
];

const NON_JAVA_NOTE =
  'flink-datastream-protobuf rejects it all the same: its restore check compares the descriptors of every file the root reaches whole, options included, so any option change there fails the restore; revert the change to restore the state';

/** A FILE_NON_JAVA_OPTION_CHANGED finding of one file, its message whole (statement; shared note), as the evaluator words it. */
function nonJavaOptionFinding(file: string) {
  const changes = 'go_package: unset → "example.com/x"';
  return {
    ruleId: 'FILE_NON_JAVA_OPTION_CHANGED',
    accepted: false,
    path: `file ${file}`,
    message: `File ${file} changes options generated Java code never reads (${changes}); ${NON_JAVA_NOTE}`,
    params: { file, changes },
  } as const;
}

describe('a rule note shared by several findings of a state is said once per state', () => {
  const [a, b, c] = ['a.proto', 'b.proto', 'c.proto'].map(nonJavaOptionFinding) as [
    ReturnType<typeof nonJavaOptionFinding>,
    ReturnType<typeof nonJavaOptionFinding>,
    ReturnType<typeof nonJavaOptionFinding>,
  ];
  const state = (findings: StateCompatibility['findings']): ReportInput['states'][number] => ({
    kind: 'protobuf',
    operator: { id: 'aaaa' },
    state: 'events',
    role: 'VALUE_SERIALIZER',
    snapshotClass: 'io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshot',
    compatibility: { ...compat, findings, firstIncompatibility: findings[0]!, failureText: 'Cannot restore …' },
    warnings: [],
  });

  it('text: the first incompatibility whole, the other files by their statement alone, the note not again', () => {
    const text = formatText(buildReport(input([state([a, b, c])])));
    expect(text.split(NON_JAVA_NOTE)).toHaveLength(2);
    expect(text).toContain(`  first incompatibility [FILE_NON_JAVA_OPTION_CHANGED]: ${a.message}\n`);
    expect(text).toContain(
      '  FAIL [FILE_NON_JAVA_OPTION_CHANGED] File b.proto changes options generated Java code never reads (go_package: unset → "example.com/x")\n',
    );
    expect(text).toContain(
      '  FAIL [FILE_NON_JAVA_OPTION_CHANGED] File c.proto changes options generated Java code never reads (go_package: unset → "example.com/x")\n',
    );
  });

  it('text: when the first incompatibility is of another rule, the note follows the findings once', () => {
    const text = formatText(buildReport(input([state([TYPE_CHANGED, b, c])])));
    expect(text.split(NON_JAVA_NOTE)).toHaveLength(2);
    expect(text).toContain(`  note on FILE_NON_JAVA_OPTION_CHANGED (2 findings above): ${NON_JAVA_NOTE}\n`);
  });

  it('Markdown and HTML: each finding row by its statement, the note once under the table', () => {
    const report = buildReport(input([state([TYPE_CHANGED, b, c])]));
    const md = formatMarkdown(report);
    expect(md.split(escapeMarkdown(NON_JAVA_NOTE))).toHaveLength(2);
    expect(md).toContain(
      '| FILE\\_NON\\_JAVA\\_OPTION\\_CHANGED | rejected | file b.proto | File b.proto changes options generated Java code never reads (go\\_package: unset → "example.com/x") |'.replace(
        'FILE\\_NON\\_JAVA\\_OPTION\\_CHANGED',
        'FILE_NON_JAVA_OPTION_CHANGED',
      ),
    );
    expect(md).toContain(`Note on FILE_NON_JAVA_OPTION_CHANGED (2 findings above): ${escapeMarkdown(NON_JAVA_NOTE)}`);
    const html = formatHtml(report);
    expect(html.split('flink-datastream-protobuf rejects it all the same')).toHaveLength(2);
    expect(html).toContain('<td>File b.proto changes options generated Java code never reads (go_package: unset → &quot;example.com/x&quot;)</td>');
  });

  it('JSON: every finding keeps its whole message, so one read alone still says why it fails', () => {
    const parsed = JSON.parse(formatJson(buildReport(input([state([TYPE_CHANGED, b, c])])))) as { states: { findings: { message: string }[] }[] };
    expect(parsed.states[0]!.findings.map((f) => f.message)).toEqual([TYPE_CHANGED.message, b.message, c.message]);
  });

  it('the app and the formats split a finding the same way: statement and note from one helper', () => {
    const report = buildReport(input([state([TYPE_CHANGED, b, c])]));
    const { findings, notes } = describeStateFindings(report.states[0]!.findings);
    expect(findings.map((f) => f.statement)).toEqual([
      TYPE_CHANGED.message,
      b.message.replace(`; ${NON_JAVA_NOTE}`, ''),
      c.message.replace(`; ${NON_JAVA_NOTE}`, ''),
    ]);
    expect(notes).toEqual([{ ruleId: 'FILE_NON_JAVA_OPTION_CHANGED', count: 2, note: NON_JAVA_NOTE }]);
  });
});

describe('report model and formats', () => {
  const report = buildReport(input(STATES));

  it('sorts states, summarizes, and keeps the overall verdict and exit code', () => {
    expect(report.states.map((s) => s.operator)).toEqual(['aaaa', 'ffff']);
    expect(report.summary).toEqual({ protobufStates: 1, compatible: 0, incompatible: 1, notRestorable: 0, unknown: 0, otherStates: 1, warnings: 1 });
    expect(report.verdict).toBe('incompatible');
    expect(computeExitCode(report)).toBe(1);
    // no Protobuf state: nothing was checked, which a CI gate never passes
    expect(computeExitCode(buildReport(input([STATES[0]!])))).toBe(1);
    expect(buildReport(input([STATES[0]!])).verdict).toBe('unknown');
  });

  it('a state of another serializer says what it is — not checked, not Protobuf — never a bare "unknown"', () => {
    const text = formatText(report).split('\n');
    expect(text).toContain('[not checked: not Protobuf] ffff / z-state (VALUE_SERIALIZER, x.LongSerializer)');
    expect(formatMarkdown(report)).toContain('| ffff / z-state | not checked: not Protobuf | not a Protobuf state: Long | 0 |');
  });

  it('JSON does not depend on the order states were given in', () => {
    expect(formatJson(buildReport(input([...STATES].reverse())))).toBe(formatJson(report));
    expect(formatJson(report)).not.toContain('generatedAt');
  });

  it('keeps the rule parameters of findings, first incompatibilities and warnings in memory; the JSON leaves them out', () => {
    const withDiff = buildReport(
      input([
        {
          ...(STATES[1] as Extract<ReportInput['states'][number], { kind: 'protobuf' }>),
          diff: { savedRoot: 'example.Event', newRoot: 'example.Event', otherFindings: [TYPE_CHANGED], declarations: [], unreached: [] },
        },
      ]),
    );
    const s = withDiff.states[0]!;
    expect(s.findings.map((f) => f.params)).toEqual([{ number: 5, name: 'label', message: 'example.Event' }, TYPE_CHANGED.params]);
    expect(s.firstIncompatibility?.params).toEqual(TYPE_CHANGED.params);
    expect(s.warnings[0]!.params).toEqual({ count: 2, number: 9, message: 'example.Event', name: 'w <b>' });
    const json = formatJson(withDiff);
    expect(json).not.toContain('"params"');
    const parsed = JSON.parse(json) as { states: Record<string, unknown>[] };
    expect(Object.keys(parsed.states[0]!.firstIncompatibility as object)).toEqual(['ruleId', 'message']);
    expect(Object.keys((parsed.states[0]!.findings as object[])[0]!)).toEqual(['ruleId', 'accepted', 'path', 'message']);
    expect(Object.keys((parsed.states[0]!.warnings as object[])[0]!)).toEqual(['ruleId', 'message', 'count', 'keys']);
    expect((parsed.states[0]!.diff as { otherFindings: unknown[] }).otherFindings).toEqual([
      { ruleId: 'FIELD_TYPE_CHANGED', accepted: false, path: 'example.Event.count (2)', message: TYPE_CHANGED.message },
    ]);
  });

  it('HTML escapes every string, has its own CSP and no script', () => {
    const html = formatHtml(report);
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; | 50% &amp; &#39;q&#39;');
    expect(html).toContain('w &lt;b&gt;');
    expect(html).toContain('Keys: k&lt;1&gt;, k2');
    expect(html.match(/Content-Security-Policy/g)).toHaveLength(1);
  });

  it('Markdown escapes table cells and keeps one line per row', () => {
    const md = formatMarkdown(report);
    expect(md).toContain('| my-uid (aaaa) / ');
    expect(md).toContain('\\<script\\>alert("x")\\</script\\> \\| 50% & \'q\' line2');
  });

  it('JUnit escapes attributes and reports failures and skips', () => {
    const xml = formatJunit(report);
    expect(xml).toContain('tests="2" failures="1" errors="0" skipped="1"');
    expect(xml).toContain('name="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; | 50% &amp; &apos;q&apos;\nline2 (VALUE_SERIALIZER)"');
    expect(xml).toContain('<failure type="FIELD_TYPE_CHANGED" message="Field 2 (count) of example.Event changes type from INT32 to SINT32">');
    expect(xml).toContain('<skipped message="not a Protobuf state: Long"/>');
  });

  it('GitHub annotations escape %, newlines, and : , in properties', () => {
    const lines = formatGithub(report).trimEnd().split('\n');
    expect(lines[0]).toBe(
      '::error file=new.binpb,title=my-uid (aaaa) / <script>alert("x")</script> | 50%25 & \'q\'%0Aline2%3A INCOMPATIBLE::Field 2 (count) of example.Event changes type from INT32 to SINT32 (FIELD_TYPE_CHANGED)%0ACannot restore …',
    );
    expect(lines[1]).toMatch(/^::warning file=new\.binpb,title=.*%3A UNKNOWN_NUMBER_BECOMES_FIELD::w <b> Keys: k<1>, k2$/);
    expect(lines.at(-1)).toMatch(/^::notice title=Savepoint compatibility%3A INCOMPATIBLE::1 Protobuf state\(s\)/);
  });
});
