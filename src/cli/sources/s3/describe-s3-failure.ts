/**
 * One line for every way an S3 request can fail, naming the bucket and key, the endpoint, the credential
 * source and what the store answered (its HTTP status, error code and message, and how many attempts the
 * SDK's retries made): a DecodeError with code `missing-file` for a missing bucket or object, `network`
 * for everything else (access denied, a bad signature, throttling after the retries, a redirect to the region the
 * store names, a connection reset, a timeout, an object that changed between reads).
 */
import { DecodeError, formatS3Url } from '../../../core/io';
import { NETWORK_CODES, storeWhere } from '../object-store';

export type S3Operation = 'HEAD' | 'GET' | 'LIST';

export interface S3FailureInit {
  op: S3Operation;
  bucket: string;
  key: string;
  error: unknown;
  credentialSource: string;
  endpoint: string;
  /** GET: the first byte of the range asked for */
  offset?: number;
}

interface SdkErrorShape {
  name?: string;
  message?: string;
  code?: string;
  Code?: string;
  found?: string;
  /** AuthorizationHeaderMalformed's error body names the region the store expects */
  Region?: string;
  $metadata?: { httpStatusCode?: number; attempts?: number; totalRetryDelay?: number };
  $response?: { headers?: Record<string, string | undefined> };
  cause?: { code?: string; message?: string };
}

/** `bucket B, key K; ENDPOINT[; credentials from C]`: what every S3 message names. */
export function s3Where(bucket: string, key: string | undefined, endpoint: string, credentials?: string): string {
  return storeWhere(
    key === undefined
      ? [['bucket', bucket]]
      : [
          ['bucket', bucket],
          ['key', key === '' ? '(none)' : key],
        ],
    endpoint,
    credentials,
  );
}

export function describeS3Failure(init: S3FailureInit): DecodeError {
  const e = (typeof init.error === 'object' && init.error !== null ? init.error : { message: String(init.error) }) as SdkErrorShape;
  const status = e.$metadata?.httpStatusCode;
  const name = e.Code ?? e.name ?? 'Error';
  const attempts = e.$metadata?.attempts ?? 1;
  const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
  const url = init.op === 'LIST' ? `s3://${init.bucket}/${init.key}` : formatS3Url(init.bucket, init.key);
  const what = init.op === 'LIST' ? `to list s3://${init.bucket}/${init.key}*` : init.op === 'HEAD' ? `to read ${url}` : `to read ${url}`;
  const by = `(${s3Where(init.bucket, init.key, init.endpoint, init.credentialSource)})`;
  const said = cleanMessage(e.message);
  const at = { file: url, ...(init.offset === undefined ? {} : { offset: init.offset }) };
  const netCode = e.code ?? e.cause?.code;
  const region = namedRegion(e, name, said);
  let found: string;
  let code: 'missing-file' | 'network' = 'network';
  if (name === 'NoSuchBucket') {
    code = 'missing-file';
    found = `no bucket "${init.bucket}" (${status ?? 404} NoSuchBucket)`;
  } else if (name === 'NoSuchKey' || (init.op === 'GET' && status === 404) || name === 'NotFound') {
    code = 'missing-file';
    found = `no such object (${status ?? 404} ${name === 'NotFound' ? 'Not Found' : 'NoSuchKey'})`;
  } else if (name === 'PreconditionFailed' || status === 412) {
    found = `the object changed between reads (its ETag is now ${e.found ?? 'another'}; 412 PreconditionFailed on If-Match): it was overwritten while it was read — read it again once it no longer changes (a mixed read is never used)`;
  } else if (name === 'SignatureDoesNotMatch' || name === 'InvalidAccessKeyId' || name === 'AccessDenied' || name === 'Forbidden' || status === 403) {
    const why =
      name === 'SignatureDoesNotMatch'
        ? ': the secret key does not match the access key'
        : name === 'InvalidAccessKeyId'
          ? ': the store does not know the access key'
          : ': these credentials may not read it';
    found = `access denied (${status ?? 403} ${name}${said ? `: ${said}` : ''})${why}`;
  } else if (name === 'SlowDown' || name === 'ThrottlingException' || name === 'TooManyRequestsException' || status === 503 || status === 429) {
    found = `throttling (${status ?? 503} ${name}${said ? `: ${said}` : ''})${tries}, retried with backoff and jitter (AWS_MAX_ATTEMPTS sets the attempts)`;
  } else if (name === 'PermanentRedirect' || status === 301 || (region !== undefined && REGION_ERRORS.has(name))) {
    found = `a redirect to another region (${status ?? 301} ${name}${said ? `: ${said}` : ''})${tries}: ${
      region === undefined ? "set AWS_REGION to the bucket's region" : `the bucket is in ${region.region} (${region.from}) — set AWS_REGION=${region.region}`
    }`;
  } else if (name === 'TimeoutError' || /timeout/i.test(name)) {
    found = `no answer in time (${said || name})${tries}: SAVEPOINT_INSPECTOR_HTTP_TIMEOUT sets the seconds`;
  } else if (name === 'ShortRange') {
    found = `a broken answer: ${said}`;
  } else if (typeof netCode === 'string' && NETWORK_CODES[netCode] !== undefined) {
    found = `${NETWORK_CODES[netCode]} (${netCode})${tries}`;
  } else if (status !== undefined) {
    found = `HTTP ${status} ${name}${said ? `: ${said}` : ''}${tries}`;
  } else {
    found = `the request failed (${name}${said ? `: ${said}` : ''})${tries}`;
  }
  return new DecodeError({ code, detail: `expected ${what} ${by}, found ${found}`, ...at, cause: init.error });
}

/** The 400 answers that mean the request went to the wrong region, when they name the right one. */
const REGION_ERRORS = new Set(['AuthorizationHeaderMalformed', 'IllegalLocationConstraint', 'IllegalLocationConstraintException']);

/**
 * The region the store named for the bucket: its `x-amz-bucket-region` header (a 301 PermanentRedirect, a
 * 400 IllegalLocationConstraint), else the `<Region>` of its error body or "expecting 'R'" in its message
 * (400 AuthorizationHeaderMalformed).
 */
function namedRegion(e: SdkErrorShape, name: string, said: string): { region: string; from: string } | undefined {
  const header = e.$response?.headers?.['x-amz-bucket-region'];
  if (typeof header === 'string' && header !== '') return { region: header, from: 'x-amz-bucket-region' };
  if (name !== 'PermanentRedirect' && !REGION_ERRORS.has(name)) return undefined;
  if (typeof e.Region === 'string' && e.Region !== '') return { region: e.Region, from: "the store's answer" };
  const expecting = /expecting '([a-z0-9-]+)'/.exec(said)?.[1];
  return expecting === undefined ? undefined : { region: expecting, from: "the store's answer" };
}

function cleanMessage(message: string | undefined): string {
  if (message === undefined) return '';
  const line = message.split('\n')[0]!.trim();
  // the SDK's placeholder when the store sent no message
  return line === 'UnknownError' || line === '' ? '' : line;
}
