import { VERDICT_WORDS } from './verdict-badge';
import type { Verdict } from '../../core/compat';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { InputFile } from '../../worker';
import { formatBytes, shortHash } from '../format';
import { useAppStore } from '../state/app-store';
import { chooseTargetLine } from '../state/choose-target-line';
import { describeStorageError, forgetRecentSession, listRecentSessions, loadRecentFiles, type RecentSession } from '../state/recent-sessions';
import { FilePickers } from './file-pickers';
import { OpenUrlForm } from './open-url-form';

/** `schemaName`: a new schema given first, waiting for its savepoint (what is dropped or picked next joins it). */
export function StartPage({
  onFiles,
  onDemo,
  onUrl,
  schemaName = null,
}: {
  onFiles: (files: InputFile[], replace?: boolean, metadataPath?: string) => void;
  onDemo: () => void;
  onUrl?: (url: string) => void;
  schemaName?: string | null;
}) {
  return (
    <div className="start" data-testid="start-page">
      <div className="dropzone" data-testid="dropzone">
        <h1>Drop a Flink savepoint here</h1>
        {schemaName !== null ? (
          <p className="callout" role="status" data-testid="schema-waiting">
            <span className="mono">{schemaName}</span> is the new schema. Now add the savepoint: its folder, a .zip/.tar/.tar.gz of it, or its _metadata file.
          </p>
        ) : null}
        <p>
          A savepoint folder, a <code>.zip</code>, <code>.tar</code> or <code>.tar.gz</code> of one, or a lone <code>_metadata</code> — together with (or after)
          the new schema: the new job&apos;s <code>.jar</code>, or a descriptor set (<code>.pb</code>, <code>.binpb</code>, <code>.desc</code>,{' '}
          <code>.protoset</code>).
        </p>
        <div className="start-actions">
          <FilePickers onFiles={(f) => onFiles(f, schemaName === null)} />
          <button type="button" className="btn primary" onClick={onDemo} data-testid="open-demo">
            Open demo
          </button>
        </div>
        {onUrl ? <OpenUrlForm onUrl={onUrl} /> : null}
        <p className="muted small">Every byte stays in this browser tab: nothing is uploaded.</p>
      </div>
      <RecentSessions onFiles={onFiles} />
    </div>
  );
}

function RecentSessions({ onFiles }: { onFiles: (files: InputFile[], replace?: boolean, metadataPath?: string) => void }) {
  const keepFiles = useAppStore((s) => s.keepFiles);
  const set = useAppStore((s) => s.set);
  const qc = useQueryClient();
  const recent = useQuery<RecentSession[], Error>({ queryKey: ['recent-sessions'], queryFn: listRecentSessions, retry: false });
  const reopen = async (s: RecentSession) => {
    try {
      const files = await loadRecentFiles(s.inputHash);
      if (files) {
        // the session's target went with Close (one session, one answer): reopening it brings its own back
        if (s.target !== undefined) chooseTargetLine(s.target);
        // an input holding several savepoints opens the one picked before, not the picker again
        onFiles([...files.savepointFiles, ...files.schemaFiles], true, s.metadataPath);
      } else set({ storageError: `the files of ${s.savepointName ?? s.inputHash} were not kept; open them again` });
    } catch (e) {
      set({ storageError: describeStorageError(e) });
    }
  };
  const forget = async (s: RecentSession) => {
    try {
      await forgetRecentSession(s.inputHash);
    } catch (e) {
      set({ storageError: describeStorageError(e) });
    }
    await qc.invalidateQueries({ queryKey: ['recent-sessions'] });
  };
  return (
    <section className="panel recent" aria-label="Recent sessions">
      <header className="panel-head">
        <h2>Recent sessions</h2>
        <label className="check">
          <input type="checkbox" checked={keepFiles} onChange={(e) => set({ keepFiles: e.currentTarget.checked })} />
          Keep opened files in this browser (up to 200 MiB) so they can be reopened after a reload
        </label>
      </header>
      {recent.isError ? <p className="error-text">{describeStorageError(recent.error)}</p> : null}
      {recent.data && recent.data.length === 0 ? <p className="muted">Nothing opened yet.</p> : null}
      {recent.data && recent.data.length > 0 ? (
        <table className="grid">
          <thead>
            <tr>
              <th>Savepoint</th>
              <th>Schema</th>
              <th className="num" title="_metadata + the state files it references">
                Savepoint size
              </th>
              <th>Input hash</th>
              <th>Verdict</th>
              <th>Opened</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {recent.data.map((s) => (
              <tr key={s.inputHash}>
                <td className="mono recent-name" title={s.savepointName ?? undefined}>
                  {s.savepointName ?? '—'}
                  {s.metadataPath !== undefined ? (
                    <span className="muted" title="the savepoint picked in this input (it holds several)">
                      {' '}
                      › {s.metadataPath}
                    </span>
                  ) : null}
                </td>
                <td className="mono" title={s.descriptorSetName ?? undefined}>
                  {s.descriptorSetName ?? '—'}
                </td>
                <td className="num" data-testid="recent-size">
                  {s.savepointSize !== undefined ? (
                    formatBytes(s.savepointSize)
                  ) : (
                    <span className="muted" title="files given; the savepoint was not inspected">
                      {formatBytes(s.totalSize)} given
                    </span>
                  )}
                </td>
                <td className="mono" title={s.inputHash}>
                  {shortHash(s.inputHash)}
                </td>
                <td>
                  {s.verdict !== null && s.verdict in VERDICT_WORDS ? VERDICT_WORDS[s.verdict as Verdict] : (s.verdict ?? <span className="muted">—</span>)}
                </td>
                <td className="nowrap">{new Date(s.openedAt).toLocaleString()}</td>
                <td className="actions">
                  {s.filesKept ? (
                    <button type="button" className="btn small" onClick={() => void reopen(s)} aria-label={`Reopen ${s.savepointName ?? s.inputHash}`}>
                      Reopen
                    </button>
                  ) : (
                    <span className="muted small">files not kept</span>
                  )}
                  <button type="button" className="btn small ghost" onClick={() => void forget(s)} aria-label={`Forget ${s.savepointName ?? s.inputHash}`}>
                    Forget
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
