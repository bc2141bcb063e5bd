import type { InputFile } from '../../worker';
import { formatBytes } from '../format';
import { useAppStore } from '../state/app-store';
import { useEffect } from 'react';
import { useCheck } from '../state/use-check';
import { useInspection } from '../state/use-inspection';
import { useSnapshotVerdicts } from '../state/use-snapshot-verdicts';
import { describeSavepointSize, formatSavepointSizeParts, nameInputType } from '../describe-savepoint-size';
import { describeStorageError, setRecentSavepointSize, setRecentVerdict } from '../state/recent-sessions';
import { ExportButtons } from './export-buttons';
import { FilePickers } from './file-pickers';
import { VERDICT_WORDS, VerdictBadge } from './verdict-badge';
import { describeVerdictLabel } from '../report/describe-verdict-reason';

export function TopBar({
  onFiles,
  onDemo,
  onClose,
  onHelp,
}: {
  onFiles: (files: InputFile[]) => void;
  onDemo: () => void;
  onClose: () => void;
  onHelp: () => void;
}) {
  const session = useAppStore((s) => s.session);
  const metadataPath = useAppStore((s) => s.metadataPath);
  const inspection = useInspection().data;
  const size = inspection ? describeSavepointSize(inspection, session) : undefined;
  // a checkpoint is called one (the inspection's type), in the chip as on the Overview
  const kind = nameInputType(inspection);
  const Kind = kind === 'checkpoint' ? 'Checkpoint' : 'Savepoint';
  const check = useCheck();
  // before a schema is open, the verdict the serializer snapshots give alone (Protobuf held by Kryo)
  const snapshotVerdicts = useSnapshotVerdicts();
  const verdict = check.data?.verdict ?? snapshotVerdicts?.verdict;
  const hash = session?.inputHash;
  // the line the verdict was computed for, when one was chosen (by the user, the URL or the jar): Reopen chooses it again
  const target = useAppStore((s) => (s.targetChosen ? s.checkOptions.target : undefined));
  useEffect(() => {
    if (hash && verdict) setRecentVerdict(hash, verdict, target).catch((e: unknown) => useAppStore.getState().set({ storageError: describeStorageError(e) }));
  }, [hash, verdict, target]);
  // the tab names the savepoint and its verdict, so a row of tabs tells them apart
  const label = check.data ? (describeVerdictLabel(check.data) ?? VERDICT_WORDS[check.data.verdict]) : verdict ? VERDICT_WORDS[verdict] : null;
  const name = session?.savepointName ?? null;
  useEffect(() => {
    document.title = [name, label, 'Savepoint Inspector'].filter((x) => x !== null).join(' · ');
  }, [name, label]);
  // Recent sessions show the same savepoint size as here and the Overview
  const total = size?.total;
  useEffect(() => {
    if (hash && total !== undefined)
      setRecentSavepointSize(hash, total).catch((e: unknown) => useAppStore.getState().set({ storageError: describeStorageError(e) }));
  }, [hash, total]);
  return (
    <header className="topbar">
      <a className="brand" href="#/overview" aria-label="Savepoint Inspector, overview">
        <span className="brand-mark" aria-hidden="true">
          ◧
        </span>{' '}
        <span className="brand-name">Savepoint Inspector</span>
      </a>
      <div className="inputs" aria-label="Current input">
        {session ? (
          <>
            <span className="input-chip savepoint" title={`${Kind}: ${session.savepointName ?? 'none'}`} data-testid="savepoint-chip">
              <span className="chip-label">{kind}</span>
              <span className="mono">{session.savepointName ?? 'none'}</span>
              {session.savepointName && metadataPath !== null ? (
                <span className="mono muted" title={`the ${kind} picked in this input (it holds several)`} data-testid="savepoint-picked">
                  {' '}
                  › {metadataPath}
                </span>
              ) : null}
              {session.savepointName && size ? (
                <span className="muted" title={`${kind} size: ${formatSavepointSizeParts(size)}`} data-testid="savepoint-size">
                  {' '}
                  {formatBytes(size.total)}
                </span>
              ) : null}
            </span>
            <span className="input-chip schema" title={`New schema (descriptor set): ${session.descriptorSetName ?? 'none'}`} data-testid="schema-chip">
              <span className="chip-label">new schema</span>
              <span className="mono">{session.descriptorSetName ?? 'none — drop the job .jar or a .binpb/.pb/.desc/.protoset'}</span>
            </span>
          </>
        ) : null}
      </div>
      {verdict ? (
        <a className="topbar-verdict" href="#/compat" aria-label={`Overall verdict: ${label ?? ''}`} data-testid="overall-verdict">
          <VerdictBadge verdict={verdict} large label={check.data ? describeVerdictLabel(check.data) : undefined} />
        </a>
      ) : null}
      {check.data ? <ExportButtons values={check.values} /> : null}
      <div className="topbar-actions">
        {session ? <FilePickers onFiles={onFiles} compact /> : null}
        {session ? (
          <button type="button" className="btn small" onClick={onDemo} aria-label="Open the demo savepoint">
            Demo
          </button>
        ) : null}
        <button type="button" className="btn small ghost" onClick={onHelp} aria-label="Keyboard help (?)" title="Keyboard help (?)" data-testid="help-button">
          ?
        </button>
        {session ? (
          <button type="button" className="btn small ghost" onClick={onClose} aria-label="Close the input and go back to the start page">
            Close
          </button>
        ) : null}
      </div>
    </header>
  );
}
