import { useState } from 'react';
import type { InspectorFailure } from '../../worker';
import { describeFailureKind, describeFailureTitle } from '../describe-failure-title';

/** A failure with everything needed to act on it: message, file, offset, path, and copyable diagnostics. */
export function FailurePanel({
  failure,
  context,
  onDismiss,
  onRetry,
}: {
  failure: InspectorFailure;
  context?: string;
  onDismiss?: () => void;
  onRetry?: () => void;
}) {
  const [copied, setCopied] = useState<string | null>(null);
  const diagnostics = JSON.stringify({ tool: 'savepoint-inspector', userAgent: navigator.userAgent, context: context ?? null, failure }, null, 2);
  const title = describeFailureTitle(failure);
  // input and network failures carry a code and a logical path; a DecodeError also its file and offset
  const located = failure.kind === 'input' || failure.kind === 'network' ? failure : null;
  const inFile = located?.name === 'DecodeError' ? located : null;
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
        <strong>
          <span className="failure-kind" data-testid="failure-kind">
            {describeFailureKind(failure)}
          </span>{' '}
          <span data-testid="failure-title">{title}</span>
        </strong>
        {onDismiss ? (
          <button type="button" className="btn small ghost" onClick={onDismiss} aria-label="Dismiss this message">
            ✕
          </button>
        ) : null}
      </header>
      <p className="failure-message" data-testid="failure-message">
        {located ? located.detail : failure.message}
      </p>
      {located ? (
        <dl className="kv">
          <dt>code</dt>
          <dd className="mono">{located.code}</dd>
          {inFile?.file !== undefined ? (
            <>
              <dt>file</dt>
              <dd className="mono" data-testid="failure-file">
                {inFile.file}
              </dd>
            </>
          ) : null}
          {inFile?.offset !== undefined ? (
            <>
              <dt>offset</dt>
              <dd className="mono" data-testid="failure-offset">
                {inFile.offset} (0x{inFile.offset.toString(16)})
              </dd>
            </>
          ) : null}
          {located.path.length > 0 ? (
            <>
              <dt>path</dt>
              <dd className="mono" data-testid="failure-path">
                {located.path.join(' / ')}
              </dd>
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
