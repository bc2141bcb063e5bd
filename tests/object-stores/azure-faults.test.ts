/**
 * Azure inputs when the store fails, against Azurite on 127.0.0.1 (tests/helpers/azurite.ts): each failure
 * is one line naming the container, blob and account, the credential source and what the store answered,
 * with exit 2 — or, when only a state file fails, that state marked not read and exit 1 from `check`.
 *
 * Made for real by Azurite: a wrong account key (403 AuthorizationFailure: the signature does not match),
 * a missing container or blob (also a state file deleted after the listing), a blob overwritten between the listing that pinned its ETag and its read
 * (412 ConditionNotMet on If-Match), also in a stats worker thread that lists the folder again. No
 * credentials at all: no key, SAS or connection string, and DefaultAzureCredential finding nothing.
 * Injected by the fault proxy in front of it (tests/helpers/azurite.ts; what Azurite does not do): 403
 * AuthorizationPermissionMismatch on `_metadata` and on one state file, throttling (503 ServerBusy, 429 with
 * a Retry-After) once (retried with backoff and jitter, then the same answer) and always (reported after the
 * attempts), a connection reset mid-range (once: read again; always: reported), and a blob overwritten between a
 * reset and the read again (the ETag pinned: an error, never a mixed read).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { ACCOUNT, ACCOUNT_KEY, putBlob, startAzureFaultProxy, startAzurite, uploadFolder, type RunningAzurite } from '../helpers/azurite';
import type { FaultAction, FaultProxy } from '../helpers/loopback-servers';

const ROOT = process.cwd();
const HASHMAP = 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint';
const THIN_JAR = 'fixtures/job-jars/jars/thin-4.36.2.jar';
const CONTAINER = 'faults';
const URL = `abfss://${CONTAINER}@${ACCOUNT}.dfs.core.windows.net/sp/savepoint`;
const KEY_SOURCE = `credentials from account key (AZURE_STORAGE_KEY, account ${ACCOUNT})`;

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

/** The error line of a failed command (the notices before it are not errors). */
function errorLine(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.startsWith('savepoint-inspector '));
  expect(lines.length, stderr).toBe(1);
  return lines[0]!;
}

describe('Azure inputs when the store fails', () => {
  let azurite: RunningAzurite;
  let proxy: FaultProxy;
  let scratch: string;
  /** the state file the tests break: the largest one (it holds keyed state) */
  let stateBlob: string;
  const saved = { ...process.env };

  const useEnv = (vars: Record<string, string>) => {
    for (const k of Object.keys(process.env)) if (k.startsWith('AZURE_') || k.startsWith('IDENTITY_') || k.startsWith('MSI_')) delete process.env[k];
    Object.assign(process.env, { AZURE_STORAGE_BLOB_ENDPOINT: proxy.endpoint, ...vars });
  };
  const stateBytes = () => readFileSync(path.join(ROOT, HASHMAP, path.basename(stateBlob)));
  const overwriteState = async () => {
    const bytes = new Uint8Array(stateBytes());
    bytes[bytes.length - 1] ^= 0xff;
    await putBlob(azurite.client, CONTAINER, stateBlob, bytes);
  };

  beforeAll(
    async () => {
      azurite = await startAzurite();
      proxy = await startAzureFaultProxy(azurite.port);
      scratch = mkdtempSync(path.join(tmpdir(), 'azure-faults-'));
      await azurite.client.getContainerClient(CONTAINER).create();
      await uploadFolder(azurite.client, CONTAINER, path.join(ROOT, HASHMAP), 'sp/savepoint/');
      const local = await run(['inspect', HASHMAP, '--format', 'json', '--handles']);
      const files = [...local.stdout.matchAll(/"path": "([0-9a-f-]{36})",\s*"size": (\d+)/g)].map((m) => ({ name: m[1]!, size: Number(m[2]) }));
      stateBlob = `sp/savepoint/${files.sort((a, b) => b.size - a.size)[0]!.name}`;
    },
    5 * 60 * 1000,
  );

  beforeEach(() => {
    useEnv({ AZURE_STORAGE_KEY: ACCOUNT_KEY });
    proxy.setRule(() => 'pass');
  });

  afterAll(async () => {
    process.env = saved;
    await proxy?.close();
    await azurite?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('a wrong account key: Azurite answers 403 AuthorizationFailure, for the folder and for its _metadata', async () => {
    useEnv({ AZURE_STORAGE_KEY: Buffer.from('not the account key').toString('base64') });
    for (const url of [URL, `${URL}/_metadata`]) {
      const r = await run(['check', url, '--job-jar', THIN_JAR]);
      expect(r.code, url).toBe(2);
      const line = errorLine(r.stderr);
      expect(line).toContain(`(container ${CONTAINER}, blob sp/savepoint`);
      expect(line).toContain(`account ${ACCOUNT}; ${proxy.endpoint} (AZURE_STORAGE_BLOB_ENDPOINT); ${KEY_SOURCE})`);
      expect(line).toContain('found access denied (403 AuthorizationFailure: Server failed to authenticate the request.');
      expect(line).toContain('the account key or SAS token does not match the account');
    }
  });

  it('a missing container, blob or prefix: exit 2', async () => {
    const container = await run(['inspect', `abfss://no-such-container@${ACCOUNT}.dfs.core.windows.net/sp/savepoint/`]);
    expect(container.code).toBe(2);
    expect(errorLine(container.stderr)).toContain(`(container no-such-container, blob sp/savepoint/, account ${ACCOUNT};`);
    expect(errorLine(container.stderr)).toContain(`found no container "no-such-container" in account ${ACCOUNT} (404 ContainerNotFound)`);
    const blob = await run(['inspect', `wasbs://${CONTAINER}@${ACCOUNT}.blob.core.windows.net/sp/elsewhere/_metadata`]);
    expect(blob.code).toBe(2);
    expect(errorLine(blob.stderr)).toContain(`(container ${CONTAINER}, blob sp/elsewhere/_metadata, account ${ACCOUNT};`);
    expect(errorLine(blob.stderr)).toContain('found no such blob (404 BlobNotFound)');
    const prefix = await run(['inspect', `abfss://${CONTAINER}@${ACCOUNT}.dfs.core.windows.net/nothing-here/`]);
    expect(prefix.code).toBe(2);
    expect(errorLine(prefix.stderr)).toContain('found no blob with that name or prefix');
  });

  it('403 AuthorizationPermissionMismatch on _metadata: exit 2; on one state file: that state is not read, check exits 1', async () => {
    const denied = {
      status: 403,
      code: 'AuthorizationPermissionMismatch',
      message: 'This request is not authorized to perform this operation using this permission.',
    };
    proxy.setRule(({ method, key }) => (method === 'GET' && key === 'sp/savepoint/_metadata' ? denied : 'pass'));
    const r = await run(['inspect', URL]);
    expect(r.code, r.stderr).toBe(2);
    expect(errorLine(r.stderr)).toContain(
      `expected to read ${URL}/_metadata (container ${CONTAINER}, blob sp/savepoint/_metadata, account ${ACCOUNT}; ${proxy.endpoint} (AZURE_STORAGE_BLOB_ENDPOINT); ${KEY_SOURCE}), found access denied (403 AuthorizationPermissionMismatch: This request is not authorized to perform this operation using this permission.): the identity may not read blobs`,
    );

    proxy.setRule(({ method, key }) => (method === 'GET' && key === stateBlob ? denied : 'pass'));
    const one = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(one.code, one.stdout + one.stderr).toBe(1);
    expect(one.stdout).toContain('found access denied (403 AuthorizationPermissionMismatch');
    expect(one.stdout).toContain(`(container ${CONTAINER}, blob ${stateBlob}, account ${ACCOUNT};`);
  });

  it('throttling (503 ServerBusy) twice: retried, the same answer as without it; always: reported after 3 attempts', async () => {
    const clean = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    const busy = { status: 503, code: 'ServerBusy', message: 'The server is busy.' };
    let n = 0;
    proxy.setRule(({ method, key }) => (method === 'GET' && key === stateBlob && ++n <= 2 ? busy : 'pass'));
    const twice = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect([twice.code, twice.stdout]).toEqual([0, clean.stdout]);
    expect(n).toBeGreaterThanOrEqual(3);

    proxy.setRule(({ method, key }) => (method === 'GET' && key === stateBlob ? busy : 'pass'));
    proxy.requests.length = 0;
    const always = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(always.code, always.stdout + always.stderr).toBe(1);
    expect(always.stdout).toContain('found throttling (503 ServerBusy: The server is busy.) after 3 attempts, retried with backoff and jitter');
    expect(always.stdout).toContain(`blob ${stateBlob}`);
    // 3 attempts for each read of the state file, not more
    const tries = proxy.requests.filter((q) => q.method === 'GET' && q.url.startsWith(`/${ACCOUNT}/${CONTAINER}/${stateBlob}`));
    expect(tries.length % 3, JSON.stringify(tries)).toBe(0);
    expect(tries.length).toBeGreaterThanOrEqual(3);

    proxy.setRule(({ method, key }) => (method === 'GET' && key === 'sp/savepoint/_metadata' ? busy : 'pass'));
    const metadata = await run(['inspect', URL]);
    expect(metadata.code).toBe(2);
    expect(errorLine(metadata.stderr)).toContain(`(container ${CONTAINER}, blob sp/savepoint/_metadata, account ${ACCOUNT};`);
    expect(errorLine(metadata.stderr)).toContain('found throttling (503 ServerBusy: The server is busy.) after 3 attempts, retried with backoff and jitter');
  }, 180_000);

  it('throttling (429 TooManyRequests) once: retried after the Retry-After it asked for, the same answer; always: reported after 3 attempts', async () => {
    const clean = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    const tooMany = { status: 429, code: 'TooManyRequests', message: 'Too many requests.', headers: { 'Retry-After': '1' } };
    let n = 0;
    proxy.setRule(({ method, key }) => (method === 'GET' && key === stateBlob && n++ === 0 ? tooMany : 'pass'));
    proxy.requests.length = 0;
    const once = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect([once.code, once.stdout]).toEqual([0, clean.stdout]);
    // asked again, after the Retry-After of 1 s (at least: a busy machine only waits longer)
    const reads = proxy.requests.filter((q) => q.method === 'GET' && q.url.startsWith(`/${ACCOUNT}/${CONTAINER}/${stateBlob}`));
    expect(reads.length, JSON.stringify(reads)).toBeGreaterThanOrEqual(2);
    expect(reads[1]!.at - reads[0]!.at).toBeGreaterThanOrEqual(900);

    proxy.setRule(({ method, key }) => (method === 'GET' && key === stateBlob ? { ...tooMany, headers: {} } : 'pass'));
    const always = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(always.code, always.stdout + always.stderr).toBe(1);
    expect(always.stdout).toContain('found throttling (429 TooManyRequests: Too many requests.) after 3 attempts, retried with backoff and jitter');
    expect(always.stdout).toContain(`blob ${stateBlob}`);
  }, 180_000);

  it('a connection reset mid-range once: read again, the same answer; always: the state not read, exit 1', async () => {
    const clean = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    let resets = 0;
    proxy.setRule(({ method, key }) => (method === 'GET' && key === stateBlob && resets++ === 0 ? 'reset-mid-body' : 'pass'));
    const once = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect([once.code, once.stdout]).toEqual([clean.code, clean.stdout]);
    expect(resets).toBeGreaterThan(1);

    proxy.setRule(({ method, key }) => (method === 'GET' && key === stateBlob ? 'reset-mid-body' : 'pass'));
    const always = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(always.code, always.stdout + always.stderr).toBe(1);
    expect(always.stdout).toContain('found the connection was reset (ECONNRESET) after 3 attempts');
    expect(always.stdout).toContain(`blob ${stateBlob}`);
  }, 180_000);

  it('a connection reset mid-range, and the blob overwritten before it is read again: an error, never a mixed read', async () => {
    let gets = 0;
    proxy.setRule(async ({ method, key }): Promise<FaultAction> => {
      if (method !== 'GET' || key !== stateBlob) return 'pass';
      gets++;
      if (gets === 1) return 'reset-mid-body';
      // the next read of it (the range read again) finds it overwritten for real in Azurite
      if (gets === 2) await overwriteState();
      return 'pass';
    });
    const r = await run(['check', URL, '--job-jar', THIN_JAR]);
    await putBlob(azurite.client, CONTAINER, stateBlob, stateBytes());
    expect(gets).toBeGreaterThanOrEqual(2);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('found the blob changed between reads');
    expect(r.stdout).toContain('412 ConditionNotMet on If-Match');
    expect(r.stdout).toContain(`blob ${stateBlob}`);
  }, 180_000);

  it('a state file deleted after the listing: that state is not read (404 BlobNotFound), check exits 1', async () => {
    let deleted = false;
    proxy.setRule(async ({ method, key }): Promise<FaultAction> => {
      if (method === 'GET' && key === 'sp/savepoint/_metadata' && !deleted) {
        deleted = true;
        await azurite.client.getContainerClient(CONTAINER).deleteBlob(stateBlob);
      }
      return 'pass';
    });
    const r = await run(['check', URL, '--job-jar', THIN_JAR]);
    await putBlob(azurite.client, CONTAINER, stateBlob, stateBytes());
    expect(deleted).toBe(true);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('found no such blob (404 BlobNotFound)');
    expect(r.stdout).toContain(`(container ${CONTAINER}, blob ${stateBlob}, account ${ACCOUNT};`);
  });

  it('a blob overwritten after the listing pinned its ETag: 412 ConditionNotMet on If-Match, the state not read, never a mixed read', async () => {
    let overwritten = false;
    proxy.setRule(async ({ method, key }): Promise<FaultAction> => {
      // overwritten for real in Azurite once _metadata is read, before the state file is
      if (method === 'GET' && key === 'sp/savepoint/_metadata' && !overwritten) {
        overwritten = true;
        await overwriteState();
      }
      return 'pass';
    });
    const r = await run(['check', URL, '--job-jar', THIN_JAR]);
    await putBlob(azurite.client, CONTAINER, stateBlob, stateBytes());
    expect(overwritten).toBe(true);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('found the blob changed between reads');
    expect(r.stdout).toContain('412 ConditionNotMet on If-Match');
    expect(r.stdout).toContain(`blob ${stateBlob}`);
    // put back: the same answer as a clean read
    const clean = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(clean.code).toBe(0);
  });

  it('stats on 2 worker threads: a blob overwritten after the main thread listed it is an error in the worker, not a mixed read', async () => {
    const clean = await run(['stats', URL, '--workers', '2', '--format', 'json']);
    expect(clean.code, clean.stderr).toBe(0);
    let fullListings = 0;
    proxy.setRule(async ({ method, url }): Promise<FaultAction> => {
      // a full listing (no delimiter) of the folder: the main thread's first, then each worker's
      if (method === 'GET' && url.includes('comp=list') && !url.includes('delimiter=') && ++fullListings === 2) await overwriteState();
      return 'pass';
    });
    const r = await run(['stats', URL, '--workers', '2', '--format', 'json']);
    await putBlob(azurite.client, CONTAINER, stateBlob, stateBytes());
    expect(fullListings).toBeGreaterThanOrEqual(2);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    const line = errorLine(r.stderr);
    expect(line).toContain(
      `expected abfss://${CONTAINER}@${ACCOUNT}.dfs.core.windows.net/${stateBlob} (container ${CONTAINER}, blob ${stateBlob}, account ${ACCOUNT}; ${proxy.endpoint} (AZURE_STORAGE_BLOB_ENDPOINT)) to keep the ETag`,
    );
    expect(line).toContain('it changed between reads (a mixed read is never used)');
  });

  it('no credentials: no key, SAS or connection string and DefaultAzureCredential finding none; nothing is sent', async () => {
    // DefaultAzureCredential's environment, workload identity and managed identity find nothing here; the developer tools (az, azd, pwsh) are not on PATH
    useEnv({
      PATH: path.join(scratch, 'empty-path'),
      IDENTITY_ENDPOINT: 'http://127.0.0.1:9/no-identity',
      IDENTITY_HEADER: 'none',
      AZURE_POD_IDENTITY_AUTHORITY_HOST: 'http://127.0.0.1:9',
    });
    const pathBefore = saved['PATH'];
    proxy.requests.length = 0;
    try {
      const r = await run(['inspect', URL]);
      expect(r.code, r.stderr).toBe(2);
      const line = errorLine(r.stderr);
      expect(line).toContain(
        `expected Azure credentials to read ${URL} (container ${CONTAINER}, blob sp/savepoint, account ${ACCOUNT}; ${proxy.endpoint} (AZURE_STORAGE_BLOB_ENDPOINT)), found none: no AZURE_STORAGE_CONNECTION_STRING, AZURE_STORAGE_KEY or AZURE_STORAGE_SAS_TOKEN in the environment, and DefaultAzureCredential`,
      );
      expect(proxy.requests).toEqual([]);
    } finally {
      process.env['PATH'] = pathBefore;
    }
  });
});
