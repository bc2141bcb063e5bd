import { useMemo, useState, type FormEvent } from 'react';
import { describeCompanionNeeded, isObjectStoreUrl } from '../../worker';
import { findCompanion } from '../input/companion';

/**
 * Open by URL: an http(s) URL of a savepoint folder or archive (fetched by range from this tab), or an
 * object-store URL (s3://, gs://, abfss://, … what the CLI reads), read through the local companion when
 * this page is the app `savepoint-inspector serve` serves; without it, the one line saying how to start it.
 */
export function OpenUrlForm({ onUrl }: { onUrl: (url: string) => void }) {
  const [url, setUrl] = useState('');
  const companion = useMemo(() => findCompanion(), []);
  const trimmed = url.trim();
  const store = isObjectStoreUrl(trimmed);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (trimmed !== '') onUrl(trimmed);
  };
  return (
    <form className="open-url" onSubmit={submit} aria-label="Open by URL" data-testid="open-url-form">
      <label htmlFor="open-url-input">Or open by URL</label>
      <div className="open-url-row">
        <input
          id="open-url-input"
          className="input mono"
          type="text"
          spellCheck={false}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder={companion ? 'https://…/savepoint-1/, s3://bucket/savepoints/savepoint-…, abfss://…' : 'https://host/path/savepoint-1/'}
          data-testid="open-url-input"
        />
        <button type="submit" className="btn" disabled={trimmed === ''} data-testid="open-url-submit">
          Open
        </button>
      </div>
      {store && companion === undefined ? (
        <p className="callout small" role="status" data-testid="companion-needed">
          {describeCompanionNeeded(trimmed)}
        </p>
      ) : store ? (
        <p className="muted small" data-testid="companion-note">
          Read through the local companion ({companion!.origin}) with this machine&apos;s credentials; only the byte ranges needed are fetched.
        </p>
      ) : null}
    </form>
  );
}
