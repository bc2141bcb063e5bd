import { useState } from 'react';
import { toInspectorFailure, type ExportFormat } from '../../worker';
import { downloadBlob } from '../download-blob';
import { useInspector } from '../inspector-context';
import { useAppStore } from '../state/app-store';
import type { CheckResult } from '../state/use-check';

const EXTENSIONS: Record<ExportFormat, string> = { json: 'json', markdown: 'md', html: 'html' };
const TYPES: Record<ExportFormat, string> = { json: 'application/json', markdown: 'text/markdown', html: 'text/html' };

/**
 * Downloads the report, rendered by the core's report formats (the same bytes `check --format` writes,
 * so the report with the value scan: the buttons wait for it).
 */
export function ExportButtons({ values }: { values: CheckResult['values'] }) {
  const inspector = useInspector();
  const options = useAppStore((s) => s.checkOptions);
  const name = useAppStore((s) => s.session?.savepointName ?? 'savepoint');
  const set = useAppStore((s) => s.set);
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const download = async (format: ExportFormat) => {
    setBusy(format);
    try {
      const text = await inspector.formatReport(options, format);
      downloadBlob(new Blob([text], { type: TYPES[format] }), `${baseName(name)}-report.${EXTENSIONS[format]}`);
    } catch (e) {
      set({ failure: toInspectorFailure(e) });
    } finally {
      setBusy(null);
    }
  };
  const waiting = values.status !== 'done';
  const why =
    values.status === 'running'
      ? 'waits for the value scan'
      : values.status === 'failed'
        ? 'the value scan failed: run it again'
        : 'scan the values first (Compatibility)';
  return (
    <span className={`export${waiting ? ' waiting' : ''}`} role="group" aria-label="Export the report" aria-describedby={waiting ? 'export-why' : undefined}>
      <span className="chip-label">export</span>
      {(['json', 'markdown', 'html'] as const).map((f) => (
        <button
          key={f}
          type="button"
          className="btn small"
          disabled={busy !== null || values.status !== 'done'}
          title={values.status === 'done' ? undefined : 'The report includes the value warnings: scan the values first'}
          onClick={() => void download(f)}
          data-testid={`export-${f}`}
          aria-label={`Download the report as ${f}`}
        >
          {f === 'markdown' ? 'MD' : f.toUpperCase()}
        </button>
      ))}
      {waiting ? (
        <span className="export-why" id="export-why" data-testid="export-why">
          {why}
        </span>
      ) : null}
    </span>
  );
}

function baseName(path: string): string {
  const last = path.split('/').filter(Boolean).pop() ?? 'savepoint';
  return last.replace(/\.(zip|tar|tar\.gz|tgz)$/i, '').replace(/[^A-Za-z0-9._-]+/g, '_') || 'savepoint';
}
