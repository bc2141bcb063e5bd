import { describe, expect, it } from 'vitest';
import { describeGcsFailure } from './describe-gcs-failure';

const base = {
  bucket: 'flink-state',
  key: 'sp/_metadata',
  credentialSource: 'Application Default Credentials: the metadata server (GCE, GKE, Cloud Run)',
  endpoint: 'Google Cloud Storage (https://storage.googleapis.com)',
};

/** The shape of @google-cloud/storage's ApiError: the HTTP status as `code`, GCS's reason in `errors`. */
function apiError(status: number, reason: string, message: string): Error {
  return Object.assign(new Error(message), { name: 'ApiError', code: status, errors: [{ reason, message }] });
}

describe('describeGcsFailure', () => {
  it('names bucket, object, endpoint and credential source, and says what GCS answered', () => {
    // fake-gcs-server checks no credentials, so GCS's own 403 is tested here with the shape the client gives it
    const denied = describeGcsFailure({
      ...base,
      op: 'GET',
      offset: 0,
      error: apiError(403, 'forbidden', 'reader@p.iam.gserviceaccount.com does not have storage.objects.get access to the Google Cloud Storage object.'),
    });
    expect(denied.code).toBe('network');
    expect(denied.message).toBe(
      'expected to read gs://flink-state/sp/_metadata (bucket flink-state, object sp/_metadata; Google Cloud Storage (https://storage.googleapis.com); credentials from Application Default Credentials: the metadata server (GCE, GKE, Cloud Run)), found access denied (403: reader@p.iam.gserviceaccount.com does not have storage.objects.get access to the Google Cloud Storage object.): these credentials may not read it (they need storage.objects.get and storage.objects.list, e.g. the Storage Object Viewer role) — at gs://flink-state/sp/_metadata, offset 0 (0x0)',
    );
    const refused = describeGcsFailure({ ...base, op: 'HEAD', error: apiError(401, 'required', 'Invalid Credentials') });
    expect(refused.message).toContain('found not authenticated (401: Invalid Credentials): the credentials were refused');
  });

  it('tells a missing bucket from a missing object (missing-file), and a changed or deleted object', () => {
    const bucket = describeGcsFailure({ ...base, op: 'LIST', key: 'sp/', error: apiError(404, 'notFound', 'The specified bucket does not exist.') });
    expect([bucket.code, bucket.message]).toEqual([
      'missing-file',
      expect.stringContaining('expected to list gs://flink-state/sp/* (bucket flink-state, object sp/;'),
    ]);
    expect(bucket.message).toContain('found no bucket "flink-state" (404: The specified bucket does not exist.)');
    const object = describeGcsFailure({ ...base, op: 'GET', error: apiError(404, 'notFound', 'No such object: flink-state/sp/_metadata') });
    expect([object.code, object.message]).toEqual([
      'missing-file',
      expect.stringContaining('found no such object (404: No such object: flink-state/sp/_metadata)'),
    ]);
    const changed = describeGcsFailure({
      ...base,
      op: 'GET',
      offset: 4096,
      error: Object.assign(apiError(404, 'notFound', 'Not Found'), { code: 412, found: '1765432100000002' }),
    });
    expect(changed.message).toContain(
      'found the object changed between reads (its generation is now 1765432100000002; 412 on ifGenerationMatch): it was overwritten while it was read',
    );
    const deleted = describeGcsFailure({ ...base, op: 'GET', error: Object.assign(apiError(404, 'notFound', 'Not Found'), { deleted: true }) });
    expect(deleted.message).toContain('found no such object (404): it was deleted after the command pinned its generation');
  });

  it('throttling, a reset connection and a timeout', () => {
    const slow = describeGcsFailure({
      ...base,
      op: 'GET',
      error: apiError(429, 'rateLimitExceeded', 'The rate of change requests to the object is too high.'),
    });
    expect(slow.message).toContain('found throttling (429: The rate of change requests to the object is too high.), retried with backoff by the client');
    // a ranged read's error carries GCS's JSON error body as its message: its message is what GCS said
    const body = JSON.stringify({
      error: {
        code: 429,
        message: 'The object exceeded the rate limit.',
        errors: [{ reason: 'rateLimitExceeded', message: 'The object exceeded the rate limit.' }],
      },
    });
    const json = describeGcsFailure({ ...base, op: 'GET', error: Object.assign(new Error(body), { code: 429 }) });
    expect(json.message).toContain('found throttling (429: The object exceeded the rate limit.), retried with backoff by the client');
    const reset = describeGcsFailure({ ...base, op: 'GET', error: Object.assign(new Error('aborted'), { code: 'ECONNRESET', attempts: 3 }) });
    expect(reset.message).toContain('found the connection was reset (ECONNRESET) after 3 attempts');
    const late = describeGcsFailure({
      ...base,
      op: 'GET',
      error: Object.assign(new Error('network timeout at: https://storage.googleapis.com/…'), { name: 'FetchError' }),
    });
    expect(late.message).toContain(
      'found no answer in time (network timeout at: https://storage.googleapis.com/…): SAVEPOINT_INSPECTOR_HTTP_TIMEOUT sets the seconds',
    );
  });
});
