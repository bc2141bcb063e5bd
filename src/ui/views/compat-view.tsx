import type { ReportState, ReportStateView } from '../../core/report';
import type { ViewedReport } from '../../worker';
import { CompatControls } from '../components/compat-controls';
import { FailurePanel } from '../components/failure-panel';
import { FindingsTable, WarningsList } from '../components/findings-table';
import { LibraryLineNote } from '../components/library-line-note';
import { RootPicker } from '../components/root-picker';
import { ValueAlertCallouts } from '../components/value-alert-callouts';
import { TargetLineQuestion } from '../components/target-line-question';
import { TargetNotAskedNote } from '../components/target-not-asked-note';
import { VERDICT_WORDS, VerdictBadge } from '../components/verdict-badge';
import { VerdictHeadline } from '../components/verdict-headline';
import { ValueCheckNote } from '../components/value-check-note';
import { useAppStore } from '../state/app-store';
import { useCheck } from '../state/use-check';
import { useSnapshotVerdicts } from '../state/use-snapshot-verdicts';
import { SnapshotVerdictsSection } from '../components/snapshot-verdicts';
import { formatHashRoute } from '../state/use-hash-route';
import { describeTargetLine, summarizeReason } from '../report/describe-library-line';
import { describeValuesNotRead } from '../report/describe-values-not-read';

export function CompatView({ params }: { params: Record<string, string> }) {
  const session = useAppStore((s) => s.session);
  const check = useCheck();
  const snapshotVerdicts = useSnapshotVerdicts();
  return (
    <div className="view" data-testid="compat-view">
      <h1>Compatibility</h1>
      {session?.descriptorSetName === null ? (
        <>
          {snapshotVerdicts ? <SnapshotVerdictsSection verdicts={snapshotVerdicts} /> : null}
          <p className="hint" data-testid="need-schema">
            Drop the new job&apos;s jar (<code>.jar</code>: the exact descriptors its generated classes embed) or a descriptor set (<code>.pb</code>,{' '}
            <code>.binpb</code>, <code>.desc</code>, <code>.protoset</code>) to check whether each state can be restored with it.
          </p>
        </>
      ) : (
        <>
          {check.targetChosen ? null : <TargetLineQuestion />}
          {check.targetNotAsked ? <TargetNotAskedNote /> : null}
          <CompatControls targetShown={check.targetChosen} />
          {check.data ? <ValueCheckNote values={check.values} /> : null}
          {check.isError ? <FailurePanel failure={check.error} context="checking compatibility" onRetry={() => void check.refetch()} /> : null}
          {check.data ? <Report report={check.data} params={params} valuesScanned={check.values.status === 'done'} /> : null}
        </>
      )}
    </div>
  );
}

function stateKey(s: ReportState): string {
  return `${s.operator}/${s.state}`;
}

function Report({ report, params, valuesScanned }: { report: ViewedReport; params: Record<string, string>; valuesScanned: boolean }) {
  const selected =
    report.states.find((s) => s.operator === params.op && s.state === params.state) ?? report.states.find((s) => s.verdict !== 'unknown') ?? report.states[0];
  const sm = report.summary;
  // Protobuf states carry a verdict of their own; the others are listed apart, each in report order
  const protobuf = report.states.filter((s) => s.ruleSet !== undefined);
  const others = report.states.filter((s) => s.ruleSet === undefined);
  return (
    <>
      <VerdictHeadline report={report} />
      {protobuf.length === 0 ? null : (
        <div className="summary-bar" data-testid="compat-summary">
          <span>
            {sm.protobufStates} Protobuf states: {sm.compatible} compatible, {sm.incompatible} incompatible, {sm.notRestorable} not restorable, {sm.unknown}{' '}
            unknown
          </span>
          <span className="muted">
            · {sm.otherStates} other states · {valuesScanned ? `${sm.warnings} value warnings` : 'values not scanned'}
            {sm.inferred ? (
              <span data-testid="summary-inferred">
                {' '}
                · {sm.inferred} verdict{sm.inferred === 1 ? '' : 's'} inferred (snapshot read by structure)
              </span>
            ) : null}
            {sm.valuesNotRead ? (
              <span data-testid="summary-values-not-read">
                {' '}
                · values of {sm.valuesNotRead} state{sm.valuesNotRead === 1 ? '' : 's'} not read
              </span>
            ) : null}{' '}
            · target {report.target}
          </span>
        </div>
      )}
      <LibraryLineNote report={report} />
      <ValueAlertCallouts report={report} />
      {report.newSchema ? (
        <details className="panel new-schema" data-testid="new-schema" open={report.newSchema.source === 'job-jar'}>
          <summary>
            {report.newSchema.source === 'job-jar' ? `New schema from the job jar ${report.newSchema.jobJar?.name ?? ''}` : 'New schema from a descriptor set'}
          </summary>
          <ul>
            {/* the jar's message → Java class pairs are the table below, not one more (long) line here */}
            {report.view.newSchemaLines.map((line, i) => (
              <li key={i} className={line.startsWith('  ') ? 'nested' : undefined}>
                {line.trim()}
              </li>
            ))}
          </ul>
          {report.newSchema.jobJar && report.newSchema.jobJar.messages.length > 0 ? (
            <table className="grid" data-testid="jar-messages">
              <thead>
                <tr>
                  <th>message</th>
                  <th>Java class</th>
                </tr>
              </thead>
              <tbody>
                {report.newSchema.jobJar.messages.map((m) => (
                  <tr key={m.fullName}>
                    <td className="mono">{m.fullName}</td>
                    <td className="mono">{m.javaClass}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </details>
      ) : null}
      <section className="panel">
        {protobuf.length > 0 ? <StatesTable states={protobuf} selected={selected} testId="compat-states" /> : null}
        {others.length > 0 ? (
          <details className="other-states" open={protobuf.length === 0}>
            <summary>
              {others.length} state{others.length === 1 ? '' : 's'} without a Protobuf serializer (not checked by the Protobuf rules)
            </summary>
            <StatesTable states={others} selected={selected} testId="compat-other-states" />
          </details>
        ) : null}
      </section>
      {selected ? <StateReport state={selected} view={report.view.states[report.states.indexOf(selected)]!} /> : null}
    </>
  );
}

function StatesTable({ states, selected, testId }: { states: readonly ReportState[]; selected: ReportState | undefined; testId: string }) {
  const withAid = states.some((s) => s.planningAid !== undefined);
  return (
    <table className={`grid states${withAid ? ' with-aid' : ''}`} data-testid={testId}>
      <thead>
        <tr>
          <th>Operator</th>
          <th>State</th>
          <th>Verdict</th>
          <th>{withAid ? 'Reason' : 'First incompatibility / reason'}</th>
          {withAid ? (
            <th title="what the target's rules would say, had it been able to read the snapshot: not the verdict">Planning aid (not the verdict)</th>
          ) : null}
          <th className="num" title="value warnings of the state: the same count as the summary and the exported report">
            Value warnings
          </th>
        </tr>
      </thead>
      <tbody>
        {states.map((s) => (
          <tr key={stateKey(s)} className={s === selected ? 'selected' : undefined} data-testid="compat-state-row">
            <td className="mono op-cell" title={s.operator}>
              {s.operatorUid ?? s.operatorName ?? `${s.operator.slice(0, 12)}…`}
            </td>
            <td className="nowrap">
              <a className="mono" href={formatHashRoute('compat', { op: s.operator, state: s.state })}>
                {s.state}
              </a>
            </td>
            <td>
              <VerdictBadge verdict={s.verdict} label={s.inferred ? `${VERDICT_WORDS[s.verdict]} (inferred)` : undefined} />
            </td>
            <td className="clip" title={s.firstIncompatibility?.message ?? s.reason}>
              {summarizeReason(s) ?? <span className="muted">—</span>}
            </td>
            {withAid ? (
              <td className="aid-cell" data-testid="row-planning-aid">
                {s.planningAid ? <PlanningAidSummary aid={s.planningAid} testId="planning-aid-first" /> : <span className="muted">—</span>}
              </td>
            ) : null}
            <td className="num">
              {s.valuesNotRead !== undefined ? (
                <span className="tag warn" title={describeValuesNotRead(s.valuesNotRead).sentence} data-testid="row-values-not-read">
                  {describeValuesNotRead(s.valuesNotRead).label}
                </span>
              ) : s.warnings.length > 0 ? (
                <span
                  title={`${s.warnings.length} value warning${s.warnings.length === 1 ? '' : 's'} over ${s.warnings.reduce((n, w) => n + w.count, 0)} saved values`}
                  data-testid="row-warnings"
                >
                  {s.warnings.length}
                </span>
              ) : (
                ''
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PlanningAidSummary({ aid, testId }: { aid: NonNullable<ReportState['planningAid']>; testId: string }) {
  return (
    <>
      <VerdictBadge verdict={aid.verdict} />{' '}
      {aid.firstIncompatibility ? (
        <span data-testid={testId}>
          <span className="mono tag bad">{aid.firstIncompatibility.ruleId}</span> {aid.firstIncompatibility.message}
        </span>
      ) : (
        <span className="muted">no incompatible change</span>
      )}
    </>
  );
}

function StateReport({ state, view }: { state: ReportState; view: ReportStateView }) {
  return (
    <section className="panel state-report" data-testid="compat-state-detail">
      <header className="panel-head">
        <h2>
          {state.state} <span className="muted">· {state.operatorUid ?? state.operator}</span>
        </h2>
        <VerdictBadge verdict={state.verdict} label={state.inferred ? `${VERDICT_WORDS[state.verdict]} (inferred)` : undefined} />
      </header>
      <div className="panel-body">
        <dl className="kv inline">
          <dt>serializer</dt>
          <dd className="mono">{state.serializer}</dd>
          {state.ruleSet ? (
            <>
              <dt>rules</dt>
              <dd>{state.ruleSet}</dd>
            </>
          ) : null}
          {state.savedRoot ? (
            <>
              <dt>root</dt>
              <dd className="mono">
                {state.savedRoot} → {state.newRoot}
              </dd>
            </>
          ) : null}
          {state.savedJavaClass ? (
            <>
              <dt>Java class</dt>
              <dd className="mono">
                {state.savedJavaClass} → {state.newJavaClass ?? '—'}
              </dd>
            </>
          ) : null}
          {state.valuesScanned !== undefined ? (
            <>
              <dt>values scanned</dt>
              <dd>{state.valuesScanned}</dd>
            </>
          ) : null}
        </dl>
        {state.inferred ? (
          <div className="callout warn" data-testid="inferred-note">
            <strong>{view.inferredLines[0]}</strong>
            <ul>
              {view.inferredLines.slice(1).map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {state.reason && state.reason !== state.firstIncompatibility?.message ? <p className="reason">{state.reason}</p> : null}
        <RootPicker state={state} />
        {state.firstIncompatibility ? (
          <div className="first-incompatibility">
            <div className="label">First incompatibility</div>
            <div data-testid="first-incompatibility">
              <span className="mono tag bad">{state.firstIncompatibility.ruleId}</span> {state.firstIncompatibility.message}
            </div>
          </div>
        ) : null}
        {state.failureText ? (
          <div className="first-incompatibility">
            <div className="label">What Flink prints on restore</div>
            <pre className="flink-text" data-testid="failure-text">
              {state.failureText}
            </pre>
          </div>
        ) : null}
        {state.planningAid ? (
          <div className="planning-aid" data-testid="planning-aid">
            <div className="label">
              Planning aid, not the verdict: what the {state.ruleSet === 'none' && state.findings[0] ? describeTargetLine(state) : 'target'} rules would say
              about this schema change
            </div>
            <p>
              <PlanningAidSummary aid={state.planningAid} testId="planning-first-incompatibility" />
            </p>
            <details>
              <summary>all {state.planningAid.findings.length} planning-aid findings</summary>
              <FindingsTable described={view.planningAidFindings!} testId="planning-findings" />
            </details>
          </div>
        ) : null}
        <h3>Findings</h3>
        <FindingsTable described={view.findings} testId="findings" />
        <h3>Value warnings</h3>
        <WarningsList warnings={state.warnings} notRead={state.valuesNotRead} />
      </div>
    </section>
  );
}
