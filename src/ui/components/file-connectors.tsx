import type { ConnectorProblem, FileRecoverableView, FileSourceSplitView, SourcesAndSinks } from '../../core/flink';

const PROBLEM_LABEL: Record<ConnectorProblem['kind'], string> = {
  corrupt: 'corrupt',
  'not-recognised': 'not recognised',
  'unsupported-version': 'unsupported version',
  'not-decoded': 'not decoded',
};

function operatorLabel(op: { operatorId: string; uid: string | null; name: string | null }): string {
  return op.uid ?? op.name ?? op.operatorId;
}

function positionText(sp: FileSourceSplitView): string {
  if (!sp.position) return 'split start';
  const skip = `${sp.position.recordsAfterOffset} record${sp.position.recordsAfterOffset === '1' ? '' : 's'}`;
  return sp.position.offset === '-1' ? `after ${skip}` : `offset ${sp.position.offset} + ${skip}`;
}

function fileText(f: FileRecoverableView): { path: string; detail: string } {
  const r = f.recoverable;
  if (r.kind === 'local') return { path: f.path ?? r.targetFile, detail: `temp ${r.tempFile}, offset ${r.offset}` };
  return { path: f.path ?? '(no path)', detail: `recoverable of another file system (v${r.serializerVersion}, ${r.bytes} bytes), not decoded` };
}

function Problems({ problems }: { problems: readonly ConnectorProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <ul className="connector-problems" data-testid="connector-problems">
      {problems.map((p, i) => (
        <li key={i} data-testid="connector-problem" data-kind={p.kind}>
          <strong>{PROBLEM_LABEL[p.kind]}</strong> <span className="mono">{p.state}</span>: {p.message}
        </li>
      ))}
    </ul>
  );
}

function SplitRows({ splits, pending }: { splits: readonly FileSourceSplitView[]; pending: boolean }) {
  return (
    <>
      {splits.map((s) => (
        <tr key={`${pending ? 'p' : s.subtask}/${s.splitId}`} data-testid={pending ? 'file-pending-split' : 'file-split'}>
          <td>{pending ? 'enumerator (pending)' : s.subtask}</td>
          <td className="mono file-path">{s.path}</td>
          <td className="num mono">
            {s.offset}+{s.length}
          </td>
          <td className="num mono">{s.fileSize}</td>
          <td>{positionText(s)}</td>
        </tr>
      ))}
    </>
  );
}

/** The FileSource / FileSink part of the Overview's "Sources and sinks" (nothing here is computed but labels). */
export function FileConnectorsView({ views }: { views: SourcesAndSinks }) {
  return (
    <>
      {(views.fileSources ?? []).map((src) => (
        <div key={src.operatorId} className="connector" data-testid="file-source-operator">
          <h3>
            FileSource <span className="mono">{operatorLabel(src)}</span>
            <span className="muted">
              {' '}
              — {src.splits.length} of {src.splitElements} split{src.splitElements === 1 ? '' : 's'} decoded, parallelism {src.parallelism}
            </span>
          </h3>
          <table className="grid" data-testid="file-splits">
            <thead>
              <tr>
                <th>Subtask</th>
                <th>File</th>
                <th className="num">Bytes</th>
                <th className="num">File size</th>
                <th>Resumes</th>
              </tr>
            </thead>
            <tbody>
              <SplitRows splits={src.splits} pending={false} />
              <SplitRows splits={src.enumerator?.pendingSplits ?? []} pending={true} />
            </tbody>
          </table>
          {src.enumerator ? (
            <details data-testid="file-enumerator">
              <summary>
                Enumerator: {src.enumerator.pendingSplits.length} pending split{src.enumerator.pendingSplits.length === 1 ? '' : 's'},{' '}
                {src.enumerator.alreadyProcessedPaths.length} processed path{src.enumerator.alreadyProcessedPaths.length === 1 ? '' : 's'}
              </summary>
              <ul className="mono">
                {src.enumerator.alreadyProcessedPaths.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </details>
          ) : null}
          <Problems problems={src.problems} />
        </div>
      ))}
      {(views.fileSinks ?? []).map((k) => (
        <div key={k.operatorId} className="connector" data-testid="file-sink-operator">
          <h3>
            {k.connector === 'file-writer' ? 'FileSink writer' : 'FileSink committer'} <span className="mono">{operatorLabel(k)}</span>
            <span className="muted"> — parallelism {k.parallelism}</span>
          </h3>
          {k.buckets.length > 0 ? (
            <table className="grid" data-testid="file-buckets">
              <caption>Buckets (the in-progress part file a restore resumes)</caption>
              <thead>
                <tr>
                  <th>Subtask</th>
                  <th>Bucket</th>
                  <th>In-progress file (recoverable)</th>
                </tr>
              </thead>
              <tbody>
                {k.buckets.map((b) => {
                  const f = b.inProgressFile ? fileText(b.inProgressFile) : null;
                  return (
                    <tr key={`${b.subtask}/${b.bucketId}`} data-testid="file-bucket">
                      <td className="num">{b.subtask}</td>
                      <td className="mono">{b.bucketId}</td>
                      <td className="mono file-path">
                        {f ? f.path : 'none'}
                        {f ? <span className="file-detail">{f.detail}</span> : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          ) : null}
          {k.committables.length > 0 ? (
            <table className="grid" data-testid="file-committables">
              <caption>Pending committables (part files a restore commits)</caption>
              <thead>
                <tr>
                  <th>Subtask</th>
                  <th className="num">Checkpoint</th>
                  <th>Bucket</th>
                  <th>File</th>
                  <th className="num">Size</th>
                  <th>State</th>
                </tr>
              </thead>
              <tbody>
                {k.committables.map((c, i) => {
                  const f = c.pendingFile ?? c.inProgressFileToCleanup;
                  const what = c.pendingFile ? 'commit' : c.inProgressFileToCleanup ? 'clean up' : 'clean up compacted';
                  return (
                    <tr key={i} data-testid="file-committable">
                      <td className="num">{c.subtask}</td>
                      <td className="num mono">{c.checkpointId}</td>
                      <td className="mono">{c.bucketId}</td>
                      <td className="mono file-path">
                        {what} {f ? fileText(f).path : (c.compactedFileToCleanup ?? '')}
                        {f ? <span className="file-detail">{fileText(f).detail}</span> : null}
                      </td>
                      <td className="num mono">{c.pendingFile?.size ?? ''}</td>
                      <td>{c.state}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          ) : null}
          <Problems problems={k.problems} />
        </div>
      ))}
    </>
  );
}
