/**
 * One line for every way an Azure Blob request can fail, naming the container, blob and account, the
 * endpoint, the credential source and what the store answered (its HTTP status, `x-ms-error-code` and
 * message): a DecodeError with code `missing-file` for a missing container or blob, `network` for
 * everything else (a wrong key or SAS, a denied read, throttling after the SDK's retries, a connection
 * failure, a blob that changed between reads).
 */
import { DecodeError, formatAzureUrl, type AzureLocation } from '../../../core/io';
import { NETWORK_CODES, storeWhere } from '../object-store';

export type AzureOperation = 'HEAD' | 'GET' | 'LIST';

export interface AzureFailureInit {
  op: AzureOperation;
  at: Pick<AzureLocation, 'scheme' | 'container' | 'host' | 'account'>;
  blob: string;
  error: unknown;
  credentialSource: string;
  endpoint: string;
  /** GET: the first byte of the range asked for */
  offset?: number;
  /** the SDK's attempts (its retry policy) */
  attempts?: number;
}

interface RestErrorShape {
  name?: string;
  message?: string;
  code?: string;
  statusCode?: number;
  details?: { errorCode?: string };
  found?: string;
  /** a 412 on If-Match for a blob that is gone now */
  deleted?: boolean;
}

/** `container C, blob B, account A; endpoint; credentials from X`: what every Azure message names. */
export function azureWhere(at: Pick<AzureLocation, 'container' | 'account'>, blob: string, endpoint: string, credentialSource?: string): string {
  return storeWhere(
    [
      ['container', at.container],
      ['blob', blob === '' ? '(none)' : blob],
      ['account', at.account],
    ],
    endpoint,
    credentialSource,
  );
}

export function describeAzureFailure(init: AzureFailureInit): DecodeError {
  const e = (typeof init.error === 'object' && init.error !== null ? init.error : { message: String(init.error) }) as RestErrorShape;
  const status = e.statusCode;
  const errorCode = e.details?.errorCode ?? (e.code !== undefined && !/^[A-Z_]+$/.test(e.code) ? e.code : undefined);
  const name = errorCode ?? e.name ?? 'Error';
  const tries = (init.attempts ?? 1) > 1 ? ` after ${init.attempts} attempts` : '';
  const url = formatAzureUrl(init.at, init.blob);
  const what = init.op === 'LIST' ? `to list ${url}*` : `to read ${url}`;
  const by = `(${azureWhere(init.at, init.blob, init.endpoint, init.credentialSource)})`;
  const said = cleanMessage(e.message);
  const with_ = said ? `: ${said}` : '';
  const at = { file: url, ...(init.offset === undefined ? {} : { offset: init.offset }) };
  const netCode = /\b(E[A-Z]{3,})\b/.exec(`${e.code ?? ''} ${e.message ?? ''}`)?.[1];
  let found: string;
  let code: 'missing-file' | 'network' = 'network';
  if (name === 'ContainerNotFound') {
    code = 'missing-file';
    found = `no container "${init.at.container}" in account ${init.at.account} (${status ?? 404} ContainerNotFound)`;
  } else if (name === 'BlobNotFound' || name === 'PathNotFound' || (init.op !== 'LIST' && status === 404)) {
    code = 'missing-file';
    found = `no such blob (${status ?? 404} ${errorCode ?? 'BlobNotFound'})${e.deleted === true ? ': it was deleted after the command listed it (412 ConditionNotMet on If-Match)' : ''}`;
  } else if (name === 'ConditionNotMet' || status === 412) {
    found = `the blob changed between reads (its ETag is now ${e.found ?? 'another'}; 412 ConditionNotMet on If-Match): it was overwritten while it was read — read it again once it no longer changes (a mixed read is never used)`;
  } else if (name === 'AuthenticationFailed' || (name === 'AuthorizationFailure' && /failed to authenticate/i.test(said))) {
    found = `access denied (${status ?? 403} ${name}${with_}): the account key or SAS token does not match the account`;
  } else if (name === 'AuthorizationPermissionMismatch') {
    found = `access denied (${status ?? 403} ${name}${with_}): the identity may not read blobs (it needs the Storage Blob Data Reader role on the container or account)`;
  } else if (name === 'AuthorizationFailure' || name === 'InsufficientAccountPermissions' || status === 403) {
    found = `access denied (${status ?? 403} ${name}${with_}): these credentials may not read it`;
  } else if (name === 'ServerBusy' || name === 'OperationTimedOut' || status === 503 || status === 429) {
    found = `throttling (${status ?? 503} ${name}${with_})${tries}, retried with backoff and jitter`;
  } else if (name === 'CredentialUnavailableError' || name === 'AuthenticationRequiredError' || name === 'AuthenticationError') {
    found = `no token from the credential (${name}${with_})`;
  } else if (name === 'TimeoutError' || name === 'AbortError' || /timeout/i.test(name)) {
    found = `no answer in time (${said || name})${tries}: SAVEPOINT_INSPECTOR_HTTP_TIMEOUT sets the seconds`;
  } else if (name === 'ShortRange') {
    found = `a broken answer: ${said}`;
  } else if (netCode !== undefined && NETWORK_CODES[netCode] !== undefined) {
    found = `${NETWORK_CODES[netCode]} (${netCode})${tries}`;
  } else if (status !== undefined) {
    found = `HTTP ${status} ${name}${with_}${tries}`;
  } else {
    found = `the request failed (${name}${with_})${tries}`;
  }
  return new DecodeError({ code, detail: `expected ${what} ${by}, found ${found}`, ...at, cause: init.error });
}

function cleanMessage(message: string | undefined): string {
  if (message === undefined) return '';
  // the service's message ends with "RequestId:… Time:…" on lines of their own
  return message.split('\n')[0]!.trim();
}
