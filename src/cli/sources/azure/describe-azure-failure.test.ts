import { describe, expect, it } from 'vitest';
import { describeAzureFailure } from './describe-azure-failure';

const at = { scheme: 'abfss' as const, container: 'flink', host: 'prodstate.dfs.core.windows.net', account: 'prodstate' };
const base = {
  at,
  blob: 'sp/_metadata',
  credentialSource: 'account key (AZURE_STORAGE_KEY, account prodstate)',
  endpoint: 'https://prodstate.blob.core.windows.net',
};
const restError = (errorCode: string | undefined, statusCode: number, message: string) =>
  Object.assign(new Error(message), { name: 'RestError', statusCode, ...(errorCode === undefined ? {} : { code: errorCode, details: { errorCode } }) });

describe('one line per Azure failure', () => {
  it('names the container, blob, account, endpoint and credential source, and what the store answered', () => {
    const e = describeAzureFailure({
      ...base,
      op: 'GET',
      offset: 0,
      error: restError(
        'AuthenticationFailed',
        403,
        'Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.\nRequestId:1\nTime:2',
      ),
    });
    expect(e.message).toBe(
      'expected to read abfss://flink@prodstate.dfs.core.windows.net/sp/_metadata (container flink, blob sp/_metadata, account prodstate; https://prodstate.blob.core.windows.net; credentials from account key (AZURE_STORAGE_KEY, account prodstate)), found access denied (403 AuthenticationFailed: Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.): the account key or SAS token does not match the account — at abfss://flink@prodstate.dfs.core.windows.net/sp/_metadata, offset 0 (0x0)',
    );
    expect(e.code).toBe('network');
  });

  it('tells apart a missing container and blob (missing-file), a denied role, throttling, a changed blob and a refused connection', () => {
    const container = describeAzureFailure({
      ...base,
      op: 'LIST',
      blob: 'sp/',
      error: restError('ContainerNotFound', 404, 'The specified container does not exist.'),
    });
    expect([container.code, container.detail]).toEqual([
      'missing-file',
      expect.stringContaining('found no container "flink" in account prodstate (404 ContainerNotFound)'),
    ]);
    expect(container.detail).toContain('expected to list abfss://flink@prodstate.dfs.core.windows.net/sp/*');
    const blob = describeAzureFailure({ ...base, op: 'GET', error: restError('BlobNotFound', 404, 'The specified blob does not exist.') });
    expect([blob.code, blob.detail]).toEqual(['missing-file', expect.stringContaining('found no such blob (404 BlobNotFound)')]);
    const role = describeAzureFailure({
      ...base,
      op: 'GET',
      credentialSource: 'DefaultAzureCredential',
      error: restError('AuthorizationPermissionMismatch', 403, 'This request is not authorized to perform this operation using this permission.'),
    });
    expect(role.detail).toContain('the identity may not read blobs (it needs the Storage Blob Data Reader role on the container or account)');
    const busy = describeAzureFailure({ ...base, op: 'GET', attempts: 3, error: restError('ServerBusy', 503, 'The server is busy.') });
    expect(busy.detail).toContain('found throttling (503 ServerBusy: The server is busy.) after 3 attempts, retried with backoff and jitter');
    const changed = describeAzureFailure({
      ...base,
      op: 'GET',
      offset: 4096,
      error: Object.assign(restError('ConditionNotMet', 412, 'The condition specified using HTTP conditional header(s) is not met.'), { found: '"0x8DC"' }),
    });
    expect(changed.detail).toContain('found the blob changed between reads (its ETag is now "0x8DC"; 412 ConditionNotMet on If-Match)');
    expect(changed.offset).toBe(4096);
    const refused = describeAzureFailure({
      ...base,
      op: 'HEAD',
      error: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:10000'), { name: 'RestError', code: 'REQUEST_SEND_ERROR' }),
    });
    expect(refused.detail).toContain('found the connection was refused: nothing listens at that host and port (ECONNREFUSED)');
  });
});
