/**
 * One line for every way a Google Cloud Storage request can fail, naming the bucket and object, the
 * endpoint, the credential source and what the store answered (its HTTP status, reason and message): a
 * DecodeError with code `missing-file` for a missing bucket or object, `network` for everything else
 * (access denied, throttling after the client's retries, a connection reset, a timeout, an object that
 * changed between reads).
 */
import { DecodeError, formatGcsUrl } from '../../../core/io';
import { NETWORK_CODES, storeWhere } from '../object-store';

export type GcsOperation = 'HEAD' | 'GET' | 'LIST';

export interface GcsFailureInit {
  op: GcsOperation;
  bucket: string;
  key: string;
  error: unknown;
  credentialSource: string;
  endpoint: string;
  /** GET: the first byte of the range asked for */
  offset?: number;
}

/** The shape of @google-cloud/storage's ApiError (and of gaxios' and Node's errors below it). */
interface ApiErrorShape {
  name?: string;
  message?: string;
  /** the HTTP status (ApiError) or a Node error code (a network failure) */
  code?: number | string;
  status?: number;
  errors?: { reason?: string; message?: string }[];
  /** set here: the generation an object has now, when it changed after it was pinned */
  found?: string;
  /** set here: the object is gone since it was pinned */
  deleted?: boolean;
  /** set here: the number of tries a broken transfer took */
  attempts?: number;
  cause?: { code?: string };
}

/** `bucket B, object K; ENDPOINT[; credentials from C]`: what every GCS message names. */
export function gcsWhere(bucket: string, key: string, endpoint: string, credentials?: string): string {
  return storeWhere(
    [
      ['bucket', bucket],
      ['object', key === '' ? '(none)' : key],
    ],
    endpoint,
    credentials,
  );
}

export function describeGcsFailure(init: GcsFailureInit): DecodeError {
  const e = (typeof init.error === 'object' && init.error !== null ? init.error : { message: String(init.error) }) as ApiErrorShape;
  const status = typeof e.code === 'number' ? e.code : e.status;
  const reason = e.errors?.[0]?.reason;
  const name = reason ?? e.name ?? 'Error';
  const tries = (e.attempts ?? 1) > 1 ? ` after ${e.attempts} attempts` : '';
  const url = formatGcsUrl(init.bucket, init.key);
  const what = init.op === 'LIST' ? `to list ${url}*` : `to read ${url}`;
  const by = `(${gcsWhere(init.bucket, init.key, init.endpoint, init.credentialSource)})`;
  const said = jsonErrorMessage((e.message ?? '').split('\n')[0]!.trim());
  const with_ = said ? `: ${said}` : '';
  const at = { file: url, ...(init.offset === undefined ? {} : { offset: init.offset }) };
  const netCode = typeof e.code === 'string' && NETWORK_CODES[e.code] !== undefined ? e.code : (e.cause?.code ?? /\b(E[A-Z]{3,})\b/.exec(e.message ?? '')?.[1]);
  let found: string;
  let code: 'missing-file' | 'network' = 'network';
  if (status === 404 && /bucket/i.test(said) && !/no such object/i.test(said)) {
    code = 'missing-file';
    found = `no bucket "${init.bucket}" (404${with_})`;
  } else if (status === 404 && e.deleted === true) {
    code = 'missing-file';
    found = `no such object (404): it was deleted after the command pinned its generation`;
  } else if (status === 404) {
    code = 'missing-file';
    found = `no such object (404${with_})`;
  } else if (status === 412 || e.found !== undefined) {
    found = `the object changed between reads (its generation is now ${e.found ?? 'another'}; 412 on ifGenerationMatch): it was overwritten while it was read — read it again once it no longer changes (a mixed read is never used)`;
  } else if (status === 401) {
    found = `not authenticated (401${with_}): the credentials were refused`;
  } else if (status === 403) {
    found = `access denied (403${with_}): these credentials may not read it (they need storage.objects.get and storage.objects.list, e.g. the Storage Object Viewer role)`;
  } else if (status === 429 || status === 503) {
    found = `throttling (${status}${with_})${tries}, retried with backoff by the client`;
  } else if (name === 'ShortRange') {
    found = `a broken answer: ${said}${tries}`;
  } else if (netCode !== undefined && NETWORK_CODES[netCode] !== undefined) {
    found = `${NETWORK_CODES[netCode]} (${netCode})${tries}`;
  } else if (/timeout|aborted/i.test(`${name} ${said}`)) {
    found = `no answer in time (${said || name})${tries}: SAVEPOINT_INSPECTOR_HTTP_TIMEOUT sets the seconds`;
  } else if (status !== undefined) {
    found = `HTTP ${status}${reason === undefined ? '' : ` ${reason}`}${with_}${tries}`;
  } else {
    found = `the request failed (${name}${with_})${tries}`;
  }
  return new DecodeError({ code, detail: `expected ${what} ${by}, found ${found}`, ...at, cause: init.error });
}

/** A ranged read's error carries GCS's JSON error body (`{"error":{"message":…}}`) as its message: what GCS said is its message. */
function jsonErrorMessage(line: string): string {
  if (!line.startsWith('{')) return line;
  try {
    const m = (JSON.parse(line) as { error?: { message?: unknown } }).error?.message;
    return typeof m === 'string' && m !== '' ? m : line;
  } catch {
    return line;
  }
}
