import { useMemo } from 'react';
import type { SavepointInspection } from '../../core/flink';
import { describeSavepointContents, listMissingStateFiles, omitMissingFileNotes } from '../describe-savepoint-contents';
import { describeStateReading, hasUnreadableValues, summarizeStateReading } from '../describe-state-reading';
import { describeFlinkVersionHint } from '../flink-version-hint';
import { describeSavepointFormat } from '../describe-savepoint-format';
import { describeSavepointSize, formatSavepointSizeParts, nameInputType } from '../describe-savepoint-size';
import { formatBytes, formatCount } from '../format';
import { useAppStore } from '../state/app-store';
import { formatHashRoute } from '../state/use-hash-route';
import { UidLookup } from '../components/uid-lookup';
import { SourcesAndSinksSection } from '../components/sources-and-sinks';
import { CompatOverview } from '../components/compat-overview';
import { SnapshotVerdictsSection } from '../components/snapshot-verdicts';
import { useSnapshotVerdicts } from '../state/use-snapshot-verdicts';
import { describeNothingToCheck } from '../report/describe-verdict-reason';
import { SizeChart } from '../components/size-chart';
import { useSizeBreakdown } from '../state/use-size-breakdown';

/**
 * A savepoint whose keyed state is in RocksDB's native format is read from its SST files; where some of
 * it could not be listed or read (a handle without meta data, missing or corrupt files), say so first,
 * so nothing looks complete that is not.
 */
function ValuesNotReadBanner({ inspection }: { inspection: SavepointInspection }) {
  const native = inspection.operators.filter((o) => o.states.some((s) => hasUnreadableValues(o, s)));
  const unread = native.flatMap((o) => o.states.filter((s) => hasUnreadableValues(o, s)));
  if (unread.length === 0) return null;
  const operators = native.length;
  const reason = unread[0]!.decodedReason ?? unread[0]!.statusReason;
  return (
    <div className="notice banner" role="status" data-testid="banner-values-not-read">
      <span>
        <strong>Values not read:</strong> {unread.length} keyed state{unread.length === 1 ? '' : 's'} of {operators} operator{operators === 1 ? '' : 's'} in
        RocksDB&apos;s native format (SST files) {unread.length === 1 ? 'was' : 'were'} not read in full{reason ? `: ${reason}` : ''}. Their verdicts come from
        the serializer snapshots; their value warnings, unknown fields, aliasing figures, statistics and values are incomplete.
      </span>
    </div>
  );
}

/** A lone `_metadata` (or a folder short of files): one sentence and what to do, the file names on request. */
function MissingFilesNote({ missing }: { missing: readonly string[] }) {
  if (missing.length === 0) return null;
  const n = missing.length;
  return (
    <div className="notice banner missing-files" role="status" data-testid="missing-files">
      <span>
        <strong data-testid="missing-files-sentence">
          {n === 1 ? '1 state file is missing' : `${formatCount(n)} state files are missing`}: open the whole folder.
        </strong>{' '}
        The <span className="mono">_metadata</span> names state files that were not given with it, so the states in them are not read. Drop the savepoint&apos;s
        folder (or an archive of it), or use <em>Open folder…</em>.
        <details>
          <summary>the missing files</summary>
          <ul className="mono small">
            {missing.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </details>
      </span>
    </div>
  );
}

/** A savepoint without Protobuf state: nothing to check, and what it holds instead (only claimed when every state header was read). */
function NoProtobufStateNote({ inspection }: { inspection: SavepointInspection }) {
  const contents = describeSavepointContents(inspection);
  if (contents.protobufStates > 0 || contents.unreadableStates > 0) return null;
  const total = contents.others.reduce((n, o) => n + o.count, 0);
  return (
    <div className="notice banner" role="status" data-testid="no-protobuf-state">
      <span>
        <strong>{describeNothingToCheck(inspection.type)}</strong>{' '}
        {total === 0 ? (
          'It holds no state at all.'
        ) : (
          <span data-testid="no-protobuf-holds">
            It holds {total} state{total === 1 ? '' : 's'} of other types:{' '}
            {contents.others.map((o) => `${o.type}${o.count > 1 ? ` × ${o.count}` : ''}`).join(', ')}.
          </span>
        )}
      </span>
    </div>
  );
}

/** Like the CLI's closing line: how many states were not read or only partly, with the reasons listed. */
function ReadingSummaryLine({ inspection }: { inspection: SavepointInspection }) {
  const sm = summarizeStateReading(inspection);
  const flagged = inspection.operators
    .flatMap((o) => o.states.map((s) => ({ o, s, r: describeStateReading(o, s) })))
    .filter(({ r }) => r.kind === 'not-read' || r.kind === 'partly');
  const ok = sm.states - sm.notRead - sm.partly;
  return (
    <section className={`reading-summary${flagged.length > 0 || sm.streamsNotRead > 0 ? ' has-gaps' : ''}`} data-testid="reading-summary">
      <p data-testid="reading-summary-line">
        <strong>
          {sm.states} state{sm.states === 1 ? '' : 's'}: {ok} read, {sm.partly} partly decoded, {sm.notRead} not read
        </strong>
        {sm.streamsNotRead > 0 ? `; ${sm.streamsNotRead} subtask stream${sm.streamsNotRead === 1 ? '' : 's'} whose states could not even be listed` : ''}
        <span className="muted"> · “read”: header and serializers read at once; values are read when a view needs them (State, Values, Compatibility)</span>
      </p>
      {flagged.length > 0 ? (
        <details open={flagged.length <= 6}>
          <summary>why {flagged.length === 1 ? 'one state is' : `${flagged.length} states are`} not (fully) read</summary>
          <ul className="small">
            {flagged.map(({ o, s, r }) => (
              <li key={`${o.id}/${s.scope}/${s.name}`} data-testid="reading-gap">
                <a className="mono" href={formatHashRoute('state', { op: o.id, state: s.name })}>
                  {s.name}
                </a>{' '}
                <span className="muted">({o.uid ?? o.name ?? `${o.id.slice(0, 12)}…`})</span>:{' '}
                <span className={`tag ${r.kind === 'not-read' ? 'bad' : 'warn'}`}>{r.label}</span> {r.detail}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}

/** warnings listed open on the Overview; the others fold into one counted line */
const WARNINGS_SHOWN = 3;

export function OverviewView({ inspection }: { inspection: SavepointInspection }) {
  const filter = useAppStore((s) => s.operatorFilter);
  const set = useAppStore((s) => s.set);
  const operators = useMemo(() => {
    const q = filter.trim().toLowerCase();
    if (!q) return inspection.operators;
    return inspection.operators.filter((o) => [o.id, o.uid ?? '', o.name ?? '', ...o.states.map((s) => s.name)].some((t) => t.toLowerCase().includes(q)));
  }, [filter, inspection.operators]);
  const stateCount = inspection.operators.reduce((n, o) => n + o.states.length, 0);
  const missing = listMissingStateFiles(inspection);
  const session = useAppStore((st) => st.session);
  const size = describeSavepointSize(inspection, session);
  const notes = omitMissingFileNotes(inspection, missing);
  const snapshotVerdicts = useSnapshotVerdicts();
  const sizes = useSizeBreakdown().data;
  return (
    <div className="view" data-testid="overview">
      <h1>Overview</h1>
      <ValuesNotReadBanner inspection={inspection} />
      <NoProtobufStateNote inspection={inspection} />
      {snapshotVerdicts ? <SnapshotVerdictsSection verdicts={snapshotVerdicts} /> : null}
      <CompatOverview />
      <div className="cards">
        <Card
          label="Input"
          value={inspection.input}
          // an object-store URL read through the companion: the credential source it used, as the CLI names it
          {...(session?.store ? { sub: `read through the local companion, credentials from ${session.store.credentials}` } : {})}
          mono
          wide
          testId="ov-input"
        />
        <Card label="Type" value={inspection.type} testId="ov-type" />
        <Card label="Format" {...describeSavepointFormat(inspection)} testId="ov-format" />
        <Card label="Checkpoint id" value={inspection.checkpointId} mono testId="ov-checkpoint" />
        <Card
          label="Metadata version"
          value={String(inspection.metadataVersion)}
          sub={describeFlinkVersionHint(inspection.metadataVersion)}
          testId="ov-version"
        />
        <Card
          label={nameInputType(inspection) === 'checkpoint' ? 'Checkpoint size' : 'Savepoint size'}
          value={formatBytes(size.total)}
          sub={`${formatCount(size.total)} bytes: ${formatSavepointSizeParts(size, missing.length)}`}
          testId="ov-size"
        />
        <Card label="Operators" value={String(inspection.operators.length)} sub={`${stateCount} states`} testId="ov-operators" />
      </div>
      <p className="compare-link">
        <a className="btn small" href={formatHashRoute('compare')} data-testid="compare-with">
          Compare with…
        </a>{' '}
        <span className="muted">another savepoint of this job: what grew, what was added, removed or renamed</span>
      </p>
      <MissingFilesNote missing={missing} />
      <ReadingSummaryLine inspection={inspection} />
      {notes.warnings.length > 0 ? (
        <ul className="warnings" aria-label="Warnings">
          {notes.warnings.slice(0, WARNINGS_SHOWN).map((w, i) => (
            <li key={i}>{w}</li>
          ))}
          {notes.warnings.length > WARNINGS_SHOWN ? (
            // a checkpoint can warn once per file (absolute paths resolved by name): the rest folds away, counted
            <li className="more-warnings">
              <details data-testid="more-warnings">
                <summary>{notes.warnings.length - WARNINGS_SHOWN} more warnings</summary>
                <ul>
                  {notes.warnings.slice(WARNINGS_SHOWN).map((w, i) => (
                    <li key={i}>{w}</li>
                  ))}
                </ul>
              </details>
            </li>
          ) : null}
        </ul>
      ) : null}
      {notes.errors.length > 0 ? (
        <ul className="errors" aria-label="Decode errors">
          {notes.errors.map((e, i) => (
            <li key={i}>{e.message}</li>
          ))}
        </ul>
      ) : null}
      {sizes ? <SizeChart breakdown={sizes} /> : null}
      <section className="panel">
        <header className="panel-head">
          <h2>Operators</h2>
          <input
            type="search"
            className="search"
            placeholder="Filter by id, uid, name or state"
            aria-label="Filter operators"
            value={filter}
            onChange={(e) => set({ operatorFilter: e.currentTarget.value })}
          />
        </header>
        <table className="grid" data-testid="operators-table">
          <thead>
            <tr>
              <th>Operator id</th>
              <th>uid / name</th>
              <th className="num">Parallelism</th>
              <th className="num">Max par.</th>
              <th>States</th>
              <th className="num">Size</th>
            </tr>
          </thead>
          <tbody>
            {operators.map((o) => (
              <tr key={o.id} data-testid="operator-row">
                <td className="mono">{o.id}</td>
                <td>
                  {o.uid ? <span className="mono">{o.uid}</span> : null}
                  {o.uid && o.name ? <span className="muted"> · </span> : null}
                  {o.name ? <span>{o.name}</span> : null}
                  {!o.uid && !o.name ? <span className="muted">not stored</span> : null}
                </td>
                <td className="num">{o.parallelism}</td>
                <td className="num">{o.maxParallelism}</td>
                <td>
                  {o.streamsNotRead.length > 0 ? (
                    <span
                      className="tag bad"
                      data-testid="streams-not-read"
                      title={o.streamsNotRead.map((n) => `subtask ${n.subtask} ${n.scope}: ${n.reason}`).join('\n')}
                    >
                      {o.streamsNotRead.length} subtask stream{o.streamsNotRead.length === 1 ? '' : 's'} not listed
                    </span>
                  ) : null}{' '}
                  {o.states.length === 0 ? (
                    <span className="muted">none</span>
                  ) : (
                    o.states.map((s) => {
                      const r = describeStateReading(o, s);
                      return (
                        <a
                          key={`${s.scope}:${s.name}`}
                          className={`chip reading-${r.kind}`}
                          href={formatHashRoute('state', { op: o.id, state: s.name })}
                          title={`${r.label}: ${r.detail}`}
                          data-testid="state-chip"
                          data-reading={r.kind}
                        >
                          {s.name}
                          {r.kind === 'not-read' || r.kind === 'partly' ? <span className="chip-flag"> · {r.label}</span> : null}
                        </a>
                      );
                    })
                  )}
                </td>
                {o.keyedFormat === 'changelog' && o.stateSize === 0 && o.states.length > 0 ? (
                  // an in-memory changelog: its changes are bytes of _metadata, no state file holds them
                  <td
                    className="num muted"
                    title="This changelog keeps its changes in _metadata (an in-memory changelog): no state file holds them"
                    data-testid="operator-size"
                  >
                    in _metadata
                  </td>
                ) : (
                  <td className="num" title={`${formatCount(o.stateSize)} bytes`} data-testid="operator-size">
                    {formatBytes(o.stateSize)}
                  </td>
                )}
              </tr>
            ))}
            {operators.length === 0 ? (
              <tr>
                <td colSpan={6} className="muted">
                  No operator matches “{filter}”.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </section>
      <SourcesAndSinksSection />
      <UidLookup operatorIds={inspection.operators.map((o) => o.id)} />
    </div>
  );
}

function Card({ label, value, sub, mono, wide, testId }: { label: string; value: string; sub?: string; mono?: boolean; wide?: boolean; testId: string }) {
  return (
    <div className={`card${wide ? ' wide' : ''}`} data-testid={testId}>
      <div className="card-label">{label}</div>
      <div className={`card-value${mono ? ' mono' : ''}`} title={value}>
        {value}
      </div>
      {sub ? <div className="card-sub">{sub}</div> : null}
    </div>
  );
}
