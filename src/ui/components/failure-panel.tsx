import { useState } from 'react';
import type { InspectorFailure } from '../../worker';

/** A failure with everything needed to act on it: message, file, offset, path, and copyable diagnostics. */
export function FailurePanel({ failure, context, onDismiss, onRetry }: { failure: InspectorFailure; context?: string; onDismiss?: () => void; onRetry?: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const diagnostics = JSON.stringify(
    { tool: 'savepoint-inspector', userAgent: navigator.userAgent, context: context ?? null, failure },
    null,
    2,
  );
  const title =
    failure.kind === 'decode'
      ? failure.code === 'wrong-file-kind' || failure.code === 'not-recognised'
        ? 'This input cannot be used here'
        : 'The input could not be decoded'
      : failure.kind === 'cancelled'
        ? 'Cancelled'
        : failure.kind === 'unavailable'
          ? 'Not available in this build'
          : 'Internal error (a bug in the inspector; please report it with the diagnostics)';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(diagnostics);
      setCopied('Copied');
    } catch (e) {
      setCopied(`Copy failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return (
    <section className={`failure failure-${failure.kind}`} role="alert" data-testid="failure">
      <header>
        <strong>{title}</strong>
        {onDismiss ? (
          <button type="button" className="btn small ghost" onClick={onDismiss} aria-label="Dismiss this message">
            ✕
          </button>
        ) : null}
      </header>
      <p className="failure-message" data-testid="failure-message">
        {failure.kind === 'decode' ? failure.detail : failure.message}
      </p>
      {failure.kind === 'decode' ? (
        <dl className="kv">
          <dt>code</dt>
          <dd className="mono">{failure.code}</dd>
          {failure.file !== undefined ? (
            <>
              <dt>file</dt>
              <dd className="mono" data-testid="failure-file">{failure.file}</dd>
            </>
          ) : null}
          {failure.offset !== undefined ? (
            <>
              <dt>offset</dt>
              <dd className="mono" data-testid="failure-offset">
                {failure.offset} (0x{failure.offset.toString(16)})
              </dd>
            </>
          ) : null}
          {failure.path.length > 0 ? (
            <>
              <dt>path</dt>
              <dd className="mono" data-testid="failure-path">{failure.path.join(' / ')}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {failure.kind === 'cancelled' && onRetry ? (
        <div className="failure-actions">
          <button type="button" className="btn small" onClick={onRetry}>
            Run again
          </button>
        </div>
      ) : null}
      {failure.kind !== 'cancelled' ? (
        <div className="failure-actions">
          <button type="button" className="btn small" onClick={copy} aria-label="Copy diagnostics to the clipboard">
            Copy diagnostics
          </button>
          {copied ? <span className="muted">{copied}</span> : null}
        </div>
      ) : null}
    </section>
  );
}
