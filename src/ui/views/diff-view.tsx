import type { DiffDeclaration, Finding, MemberRow, SchemaDiff } from '../../core/compat';
import type { ReportState } from '../../core/report';
import { FailurePanel } from '../components/failure-panel';
import { TargetLineQuestion } from '../components/target-line-question';
import { useAppStore } from '../state/app-store';
import { useCheck } from '../state/use-check';
import { updateRouteParams } from '../state/use-hash-route';

export function DiffView({ params }: { params: Record<string, string> }) {
  const check = useCheck();
  const session = useAppStore((s) => s.session);
  const changesOnly = useAppStore((s) => s.diffChangesOnly);
  const set = useAppStore((s) => s.set);
  if (session?.descriptorSetName === null) {
    return (
      <div className="view">
        <h1>Schema diff</h1>
        <p className="hint">Drop the new schema (the new job&apos;s .jar or a descriptor set) to compare it with the schema saved in the savepoint.</p>
      </div>
    );
  }
  if (check.isError) return <FailurePanel failure={check.error} context="building the schema diff" onRetry={() => void check.refetch()} />;
  // the diff follows the target line: until it is chosen, ask here rather than show a blank page
  if (!check.targetChosen) {
    return (
      <div className="view">
        <h1>Schema diff</h1>
        <TargetLineQuestion />
      </div>
    );
  }
  if (!check.data) return null;
  const withDiff = check.data.states.filter((s): s is ReportState & { diff: SchemaDiff } => s.diff !== undefined);
  const selected = withDiff.find((s) => s.operator === params.op && s.state === params.state) ?? withDiff[0];
  // the diff follows the target: at 0.x every change is a rejection of the exact rule (unless the state is not restorable at all)
  const exact = selected?.ruleSet === 'exact';
  return (
    <div className="view" data-testid="diff-view">
      <h1>Schema diff</h1>
      {withDiff.length === 0 ? (
        <p className="muted">No state has a Protobuf schema to compare.</p>
      ) : (
        <>
          <div className="controls" role="group" aria-label="Diff options">
            <label>
              State
              <select
                value={`${selected.operator}/${selected.state}`}
                onChange={(e) => {
                  const s = withDiff.find((x) => `${x.operator}/${x.state}` === e.currentTarget.value);
                  if (s) updateRouteParams({ op: s.operator, state: s.state });
                }}
                aria-label="State whose schema diff is shown"
              >
                {withDiff.map((s) => (
                  <option key={`${s.operator}/${s.state}`} value={`${s.operator}/${s.state}`}>
                    {s.state} · {s.operatorUid ?? s.operator.slice(0, 12)}
                  </option>
                ))}
              </select>
            </label>
            <label className="check-inline">
              <input type="checkbox" checked={changesOnly} onChange={(e) => set({ diffChangesOnly: e.currentTarget.checked })} data-testid="changes-only" />
              changes only
            </label>
            {exact ? (
              <span className="legend" data-testid="diff-legend">
                <span className="swatch rejected" /> change: rejected by the 0.x exact rule (it restores only an identical schema)
              </span>
            ) : (
              <span className="legend" data-testid="diff-legend">
                <span className="swatch accepted" /> accepted change <span className="swatch rejected" /> rejected change <span className="swatch changed" />{' '}
                changed (no rule)
              </span>
            )}
          </div>
          <p className="muted" data-testid="diff-target">
            {exact
              ? 'Target 0.x: the exact rule accepts no change at all, so every change below breaks the restore. The rule ids name what changed.'
              : selected.ruleSet === 'none'
                ? `Not restorable at target ${check.data.target} whatever the schema: the marks below are the planning aid, what the directional rules would say about each change.`
                : `Target ${check.data.target}: each change is accepted or rejected by its directional rule.`}
          </p>
          <SchemaDiffPanel diff={selected.diff} changesOnly={changesOnly} exact={exact} />
        </>
      )}
    </div>
  );
}

function SchemaDiffPanel({ diff, changesOnly, exact }: { diff: SchemaDiff; changesOnly: boolean; exact: boolean }) {
  const shown = diff.declarations.filter((d) => !changesOnly || d.status !== 'unchanged');
  return (
    <>
      <p className="muted">
        Saved root <span className="mono">{diff.savedRoot}</span> → new root <span className="mono">{diff.newRoot}</span>. The reached declarations (the root
        message and every message and enum its fields use, directly or through other messages) decide the verdict; the others are listed apart.
      </p>
      {diff.otherFindings.length > 0 ? <FindingChips findings={diff.otherFindings} /> : null}
      {shown.map((d) => (
        <DeclarationDiff key={`${d.savedName ?? d.newName}`} decl={d} changesOnly={changesOnly} exact={exact} />
      ))}
      {shown.length === 0 ? <p className="muted">No reached declaration changed.</p> : null}
      <h3>
        {exact
          ? "Unreached changes (0.x compares whole files: a change in a file the root's file imports counts too)"
          : 'Unreached changes (do not affect the verdict)'}
      </h3>
      {diff.unreached.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        diff.unreached.map((d) => <DeclarationDiff key={`u:${d.savedName ?? d.newName}`} decl={d} changesOnly={changesOnly} exact={false} />)
      )}
    </>
  );
}

function DeclarationDiff({ decl, changesOnly, exact }: { decl: DiffDeclaration; changesOnly: boolean; exact: boolean }) {
  const rows = decl.rows.filter((r) => !changesOnly || rowStatus(r, decl.findings, exact).status !== 'unchanged');
  const declFindings = decl.findings.filter((f) => !/\(\d+\)$/.test(f.path));
  return (
    <section className={`panel decl ${decl.reached ? '' : 'unreached'}`} data-testid="diff-declaration">
      <header className="panel-head">
        <h2 className="mono">{decl.savedName === decl.newName || !decl.newName ? decl.savedName : `${decl.savedName ?? '∅'} → ${decl.newName}`}</h2>
        <span className="tag muted">{decl.kind}</span>
        <span className={`tag ${decl.status === 'unchanged' ? 'muted' : exact || decl.findings.some((f) => !f.accepted) ? 'bad' : 'ok'}`}>{decl.status}</span>
      </header>
      {declFindings.length > 0 ? <FindingChips findings={declFindings} exact={exact} /> : null}
      <table className="grid diff">
        <thead>
          <tr>
            <th>Member</th>
            <th>Saved</th>
            <th>New</th>
            <th>Rules</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const { status, findings } = rowStatus(r, decl.findings, exact);
            return (
              <tr key={`${r.kind}|${r.key}`} className={`diff-${status}`} data-testid="diff-row" data-status={status}>
                <td className="mono">{r.kind === 'options' ? 'options' : `${r.kind} ${r.key}`}</td>
                <td className="mono">{describeMember(r.saved)}</td>
                <td className="mono">{describeMember(r.new)}</td>
                <td>
                  {findings.map((f, i) => (
                    <span
                      key={i}
                      className={`tag ${f.accepted && !exact ? 'ok' : 'bad'} mono`}
                      title={exact ? `${f.message} (rejected: 0.x accepts no change)` : f.message}
                    >
                      {f.ruleId}
                    </span>
                  ))}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

function FindingChips({ findings, exact = false }: { findings: readonly Finding[]; exact?: boolean }) {
  return (
    <ul className="finding-chips">
      {findings.map((f, i) => (
        <li key={i}>
          <span className={`tag ${f.accepted && !exact ? 'ok' : 'bad'} mono`}>{f.ruleId}</span> {f.message}
        </li>
      ))}
    </ul>
  );
}

/** A member row's findings are those whose path ends in its number, e.g. `fixtures.common.Detail.code (2)`. */
function rowStatus(
  r: MemberRow,
  findings: readonly Finding[],
  exact: boolean,
): { status: 'unchanged' | 'accepted' | 'rejected' | 'changed'; findings: Finding[] } {
  const mine = r.kind === 'field' || r.kind === 'enum-value' ? findings.filter((f) => f.path.endsWith(`(${r.key})`)) : [];
  const same = JSON.stringify(r.saved ?? null) === JSON.stringify(r.new ?? null);
  // 0.x: any difference is a rejection of the exact rule
  if (exact) return { status: same && mine.length === 0 ? 'unchanged' : 'rejected', findings: mine };
  if (mine.some((f) => !f.accepted)) return { status: 'rejected', findings: mine };
  if (mine.length > 0) return { status: 'accepted', findings: mine };
  return { status: same ? 'unchanged' : 'changed', findings: mine };
}

function describeMember(m: Record<string, string> | undefined): string {
  if (!m) return '—';
  if (m.type !== undefined && m.name !== undefined) {
    const extra = [
      m.oneof ? `oneof ${m.oneof}` : '',
      m.jsonName ? `json_name=${m.jsonName}` : '',
      m.default ? `default=${m.default}` : '',
      m.options ? `[${m.options}]` : '',
    ]
      .filter(Boolean)
      .join(' ');
    return `${m.label === 'singular' ? '' : `${m.label} `}${m.type} ${m.name} = ${m.number}${extra ? ` ${extra}` : ''}`;
  }
  if (m.name !== undefined && m.number !== undefined) return `${m.name} = ${m.number}${m.options ? ` [${m.options}]` : ''}`;
  return Object.entries(m)
    .map(([k, v]) => (k === 'name' || k === 'reserved' || k === 'oneof' || k === 'options' ? v : `${k}=${v}`))
    .join(' ');
}
