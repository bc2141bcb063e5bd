import { useId, useState } from 'react';
import { toInspectorFailure } from '../../worker';
import { downloadBlob } from '../download-blob';
import { useInspector } from '../inspector-context';
import { useAppStore } from '../state/app-store';

/**
 * Downloads a Protobuf snapshot's saved schema (the descriptor set it embeds, byte for byte what the
 * CLI's `export-schema --output` writes), for `compare <new.binpb> --against <file> --root <root>` in CI.
 */
export function SavedSchemaButton({ sha256, root }: { sha256: string; root: string }) {
  const inspector = useInspector();
  const set = useAppStore((s) => s.set);
  const [busy, setBusy] = useState(false);
  const hintId = useId();
  const fileName = `${root.replace(/[^A-Za-z0-9._-]+/g, '_')}.saved.binpb`;
  const download = async () => {
    setBusy(true);
    try {
      const bytes = await inspector.getSavedSchema(sha256);
      downloadBlob(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }), fileName);
    } catch (e) {
      set({ failure: toInspectorFailure(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="saved-schema">
      <button
        type="button"
        className="btn small"
        disabled={busy}
        onClick={() => void download()}
        data-testid="download-saved-schema"
        aria-label={`Download the saved schema of ${root}`}
        aria-describedby={hintId}
      >
        Download saved schema
      </button>
      <span className="muted small" id={hintId}>
        {' '}
        {fileName}: the descriptor set this snapshot embeds. Check a new schema against it without the savepoint:{' '}
        <code>
          savepoint-inspector compare &lt;new.binpb&gt; --against {fileName} --root {root}
        </code>
      </span>
    </div>
  );
}
