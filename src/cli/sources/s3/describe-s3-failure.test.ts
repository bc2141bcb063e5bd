import { describe, expect, it } from 'vitest';
import { describeS3Failure } from './describe-s3-failure';

const base = {
  bucket: 'flink-state',
  key: 'sp/_metadata',
  credentialSource: 'environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)',
  endpoint: 'AWS S3 (region eu-west-1)',
};
const sdkError = (name: string, status: number, message: string, attempts = 1) =>
  Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status, attempts } });

describe('one line per S3 failure', () => {
  it('names the bucket, key, endpoint and credential source, and what the store answered', () => {
    const e = describeS3Failure({ ...base, op: 'GET', offset: 0, error: sdkError('AccessDenied', 403, 'Access Denied') });
    expect(e.message).toBe(
      'expected to read s3://flink-state/sp/_metadata (bucket flink-state, key sp/_metadata; AWS S3 (region eu-west-1); credentials from environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)), found access denied (403 AccessDenied: Access Denied): these credentials may not read it — at s3://flink-state/sp/_metadata, offset 0 (0x0)',
    );
    expect(e.code).toBe('network');
  });

  it('tells apart a missing bucket and object (missing-file), throttling after the attempts, a region redirect, a timeout', () => {
    const bucket = describeS3Failure({ ...base, op: 'LIST', key: 'sp/', error: sdkError('NoSuchBucket', 404, 'The specified bucket does not exist') });
    expect([bucket.code, bucket.detail]).toEqual(['missing-file', expect.stringContaining('found no bucket "flink-state" (404 NoSuchBucket)')]);
    expect(bucket.detail).toContain('expected to list s3://flink-state/sp/*');
    const key = describeS3Failure({ ...base, op: 'GET', error: sdkError('NoSuchKey', 404, 'The specified key does not exist.') });
    expect([key.code, key.detail]).toEqual(['missing-file', expect.stringContaining('found no such object (404 NoSuchKey)')]);
    const slow = describeS3Failure({ ...base, op: 'GET', error: sdkError('SlowDown', 503, 'Please reduce your request rate.', 3) });
    expect(slow.detail).toContain('found throttling (503 SlowDown: Please reduce your request rate.) after 3 attempts, retried with backoff and jitter');
    const many = describeS3Failure({ ...base, op: 'GET', error: sdkError('TooManyRequestsException', 429, 'Too Many Requests', 3) });
    expect(many.detail).toContain('found throttling (429 TooManyRequestsException: Too Many Requests) after 3 attempts');
    const moved = describeS3Failure({
      ...base,
      op: 'HEAD',
      error: sdkError('PermanentRedirect', 301, 'The bucket you are attempting to access must be addressed using the specified endpoint.'),
    });
    expect(moved.detail).toContain(
      "found a redirect to another region (301 PermanentRedirect: The bucket you are attempting to access must be addressed using the specified endpoint.): set AWS_REGION to the bucket's region",
    );
    // the region the store named: its x-amz-bucket-region header, the <Region> of its error body, or "expecting 'R'" in its message
    const named = describeS3Failure({
      ...base,
      op: 'GET',
      error: Object.assign(sdkError('PermanentRedirect', 301, 'The bucket you are attempting to access must be addressed using the specified endpoint.', 2), {
        $response: { statusCode: 301, headers: { 'x-amz-bucket-region': 'ap-southeast-2' } },
      }),
    });
    expect(named.detail).toContain(
      'found a redirect to another region (301 PermanentRedirect: The bucket you are attempting to access must be addressed using the specified endpoint.) after 2 attempts: the bucket is in ap-southeast-2 (x-amz-bucket-region) — set AWS_REGION=ap-southeast-2',
    );
    const malformed = describeS3Failure({
      ...base,
      op: 'HEAD',
      error: Object.assign(
        sdkError('AuthorizationHeaderMalformed', 400, "The authorization header is malformed; the region 'eu-west-1' is wrong; expecting 'us-west-2'"),
        { Region: 'us-west-2' },
      ),
    });
    expect(malformed.detail).toContain(
      "found a redirect to another region (400 AuthorizationHeaderMalformed: The authorization header is malformed; the region 'eu-west-1' is wrong; expecting 'us-west-2'): the bucket is in us-west-2 (the store's answer) — set AWS_REGION=us-west-2",
    );
    const constraint = describeS3Failure({
      ...base,
      op: 'LIST',
      key: 'sp/',
      error: Object.assign(
        sdkError(
          'IllegalLocationConstraintException',
          400,
          'The eu-central-1 location constraint is incompatible for the region specific endpoint this request was sent to.',
        ),
        {
          $response: { statusCode: 400, headers: { 'x-amz-bucket-region': 'eu-central-1' } },
        },
      ),
    });
    expect(constraint.detail).toContain('found a redirect to another region (400 IllegalLocationConstraintException: ');
    expect(constraint.detail).toContain('the bucket is in eu-central-1 (x-amz-bucket-region) — set AWS_REGION=eu-central-1');
    const late = describeS3Failure({ ...base, op: 'GET', error: Object.assign(new Error('Connection timed out after 10000 ms'), { name: 'TimeoutError' }) });
    expect(late.detail).toContain('found no answer in time (Connection timed out after 10000 ms): SAVEPOINT_INSPECTOR_HTTP_TIMEOUT sets the seconds');
    const reset = describeS3Failure({ ...base, op: 'GET', error: Object.assign(new Error('aborted'), { code: 'ECONNRESET', $metadata: { attempts: 3 } }) });
    expect(reset.detail).toContain('found the connection was reset (ECONNRESET) after 3 attempts');
  });

  it('an object changed between reads is never taken as a mixed read', () => {
    const e = describeS3Failure({
      ...base,
      op: 'GET',
      offset: 4096,
      error: Object.assign(new Error('At least one of the pre-conditions you specified did not hold'), {
        name: 'PreconditionFailed',
        $metadata: { httpStatusCode: 412 },
      }),
    });
    expect(e.detail).toContain('found the object changed between reads (its ETag is now another; 412 PreconditionFailed on If-Match)');
    expect(e.offset).toBe(4096);
  });
});
