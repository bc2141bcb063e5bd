/**
 * Azure inputs (`abfss://`, `abfs://`, `wasbs://`, `wasb://`) against a real Blob endpoint (Azurite on
 * 127.0.0.1, checking shared-key signatures; see tests/helpers/azurite.ts): fixture savepoints uploaded
 * in the setup give, through `inspect`, `check`, `dump`, `stats` and `export`, the stdout of the same
 * command over the local copy — byte for byte once the input's name (the URL where the local run prints
 * its path) is put back. Also: the `_metadata`, archive and job checkpoint directory forms of a URL, the
 * four schemes, absolute handles of an incremental RocksDB checkpoint read through `--path-map` (to Azure
 * and from Azure to local files), the notices on stderr (endpoint, credential source, chosen checkpoint),
 * the credentials of a connection string, and that a header-only inspection reads by ranges only.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { expectSameBytes } from '../helpers/expect-same-bytes';
import { ACCOUNT, ACCOUNT_KEY, putBlob, startAzurite, startCountingProxy, uploadFolder, type CountingProxy, type RunningAzurite } from '../helpers/azurite';

const ROOT = process.cwd();
const HASHMAP = 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint';
const ROCKSDB = 'fixtures/savepoints/flink-1.20/rocksdb/native/savepoint';
const ZIP = 'fixtures/savepoints/flink-2.3/rocksdb/canonical-compressed/savepoint.zip';
const INCREMENTAL = 'fixtures/rocksdb-checkpoints/flink-1.20/default-compression';
const JOB_ID = '4b88fb62184edaaf2de7b862ac2095f7';
/** where the incremental fixture's absolute handles say their files were written */
const WRITTEN_AT = 'file:/tmp/fixture-incremental-11037419022375365011/checkpoints/';
const THIN_JAR = 'fixtures/job-jars/jars/thin-4.36.2.jar';
const ADDED_FIELD_JAR = 'fixtures/job-jars/jars/added-field-4.36.2.jar';
const CONTAINER = 'savepoints';
const ABFSS = `abfss://${CONTAINER}@${ACCOUNT}.dfs.core.windows.net`;
const WASBS = `wasbs://${CONTAINER}@${ACCOUNT}.blob.core.windows.net`;
const KEY_SOURCE = `credentials from account key (AZURE_STORAGE_KEY, account ${ACCOUNT})`;

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

/** The files of a checkpoint folder of the fixture split as Flink lays them out: those absolute handles name go to the job's shared/. */
function flinkLayout(chk: string): { own: string[]; shared: string[] } {
  const dir = path.join(ROOT, INCREMENTAL, chk);
  const metadata = readFileSync(path.join(dir, '_metadata')).toString('latin1');
  const names = readdirSync(dir).filter((n) => n !== '_metadata');
  return { own: ['_metadata', ...names.filter((n) => !metadata.includes(`/shared/${n}`))], shared: names.filter((n) => metadata.includes(`/shared/${n}`)) };
}

describe('Azure inputs against Azurite', () => {
  let azurite: RunningAzurite;
  let proxy: CountingProxy;
  let localJob: string;
  const saved = { ...process.env };

  const useEnv = (vars: Record<string, string>) => {
    for (const k of Object.keys(process.env)) if (k.startsWith('AZURE_')) delete process.env[k];
    Object.assign(process.env, vars);
  };
  const useKey = () => useEnv({ AZURE_STORAGE_BLOB_ENDPOINT: proxy.endpoint, AZURE_STORAGE_KEY: ACCOUNT_KEY });

  beforeAll(
    async () => {
      azurite = await startAzurite();
      // requests go through a pass-through proxy that counts them
      proxy = await startCountingProxy(azurite.port);
      await azurite.client.getContainerClient(CONTAINER).create();
      await uploadFolder(azurite.client, CONTAINER, path.join(ROOT, HASHMAP), 'hashmap/savepoint/');
      await uploadFolder(azurite.client, CONTAINER, path.join(ROOT, ROCKSDB), 'rocksdb/savepoint-7/');
      await putBlob(azurite.client, CONTAINER, 'archives/savepoint.zip', readFileSync(path.join(ROOT, ZIP)));
      // the incremental checkpoint as Flink writes it: <job>/chk-N/ with its own files, <job>/shared/ the files absolute handles name,
      // and a chk-3 still in progress (no _metadata); locally the same layout (chk-2 and shared/) for the comparison
      localJob = mkdtempSync(path.join(tmpdir(), 'azure-read-job-'));
      for (const chk of ['chk-1', 'chk-2']) {
        const { own, shared } = flinkLayout(chk);
        for (const n of own) await putBlob(azurite.client, CONTAINER, `ckpt/${JOB_ID}/${chk}/${n}`, readFileSync(path.join(ROOT, INCREMENTAL, chk, n)));
        for (const n of shared) await putBlob(azurite.client, CONTAINER, `ckpt/${JOB_ID}/shared/${n}`, readFileSync(path.join(ROOT, INCREMENTAL, chk, n)));
        mkdirSync(path.join(localJob, JOB_ID, 'shared'), { recursive: true });
        for (const n of shared) cpSync(path.join(ROOT, INCREMENTAL, chk, n), path.join(localJob, JOB_ID, 'shared', n));
        if (chk === 'chk-2') {
          mkdirSync(path.join(localJob, JOB_ID, chk), { recursive: true });
          for (const n of own) cpSync(path.join(ROOT, INCREMENTAL, chk, n), path.join(localJob, JOB_ID, chk, n));
        }
      }
      await putBlob(azurite.client, CONTAINER, `ckpt/${JOB_ID}/chk-3/in-progress`, new Uint8Array([1, 2, 3]));
      useKey();
    },
    5 * 60 * 1000,
  );

  afterAll(async () => {
    process.env = saved;
    await proxy?.close();
    await azurite?.stop();
    if (localJob) rmSync(localJob, { recursive: true, force: true });
  });

  /** Runs the command over the URL and over the local copy; stdout must be the same once the URL is put back as the local name. */
  async function expectSameAsLocal(args: (input: string) => string[], url: string, local: string, extra: { code?: number } = {}) {
    const remote = await run(args(url));
    const here = await run(args(local));
    expect(remote.stdout.split(url).join(local)).toBe(here.stdout);
    expect(remote.code, remote.stderr).toBe(here.code);
    if (extra.code !== undefined) expect(remote.code).toBe(extra.code);
    expect(remote.stderr).toContain(`reading ${url} from ${proxy.endpoint} (AZURE_STORAGE_BLOB_ENDPOINT), ${KEY_SOURCE}`);
    return remote;
  }

  it("inspect (text and JSON), check, stats and dump of a savepoint folder give the local copy's stdout", async () => {
    const url = `${ABFSS}/hashmap/savepoint`;
    await expectSameAsLocal((i) => ['inspect', i], url, HASHMAP, { code: 0 });
    await expectSameAsLocal((i) => ['inspect', i, '--format', 'json'], url, HASHMAP, { code: 0 });
    await expectSameAsLocal((i) => ['check', i, '--job-jar', THIN_JAR], url, HASHMAP, { code: 0 });
    await expectSameAsLocal((i) => ['check', i, '--job-jar', ADDED_FIELD_JAR, '--format', 'json'], url, HASHMAP, { code: 1 });
    await expectSameAsLocal((i) => ['stats', i, '--workers', '2'], url, HASHMAP, { code: 0 });
    const inspected = JSON.parse((await run(['inspect', HASHMAP, '--format', 'json', '--headers-only'])).stdout) as {
      operators: { id: string; states: { name: string }[] }[];
    };
    const op = inspected.operators.find((o) => o.states.some((s) => s.name === 'last-event'))!;
    await expectSameAsLocal((i) => ['dump', i, '--operator', op.id, '--state', 'last-event', '--format', 'json', '--limit', '20'], url, HASHMAP, { code: 0 });
  });

  it('export writes the same file, byte for byte (JSON Lines and Parquet)', async () => {
    const inspected = JSON.parse((await run(['inspect', HASHMAP, '--format', 'json', '--headers-only'])).stdout) as {
      operators: { id: string; states: { name: string }[] }[];
    };
    const op = inspected.operators.find((o) => o.states.some((s) => s.name === 'last-event'))!;
    const url = `${WASBS}/hashmap/savepoint/`;
    for (const format of ['jsonl', 'parquet']) {
      const remoteFile = path.join(localJob, `remote.${format}`);
      const localFile = path.join(localJob, `local.${format}`);
      const remote = await run(['export', url, '--operator', op.id, '--state', 'last-event', '--format', format, '--output', remoteFile]);
      const here = await run(['export', HASHMAP, '--operator', op.id, '--state', 'last-event', '--format', format, '--output', localFile]);
      expect([remote.code, here.code], remote.stderr).toEqual([0, 0]);
      expectSameBytes(readFileSync(remoteFile), readFileSync(localFile));
      expect(remote.stdout.split(url).join(HASHMAP).split(remoteFile).join(localFile)).toBe(here.stdout);
    }
  });

  it('a RocksDB native savepoint, named by its _metadata and in each of the four schemes', async () => {
    const urls = [
      `${ABFSS}/rocksdb/savepoint-7/_metadata`,
      `abfs://${CONTAINER}@${ACCOUNT}.dfs.core.windows.net/rocksdb/savepoint-7/`,
      `${WASBS}/rocksdb/savepoint-7`,
      `wasb://${CONTAINER}@${ACCOUNT}.blob.core.windows.net/rocksdb/savepoint-7/`,
    ];
    for (const url of urls) {
      await expectSameAsLocal((i) => ['inspect', i], url, ROCKSDB, { code: 0 });
      await expectSameAsLocal((i) => ['stats', i, '--workers', '2', '--format', 'json'], url, ROCKSDB, { code: 0 });
    }
  });

  it('an archive blob is read by ranges', async () => {
    const url = `${ABFSS}/archives/savepoint.zip`;
    await expectSameAsLocal((i) => ['inspect', i], url, ZIP, { code: 0 });
    await expectSameAsLocal((i) => ['stats', i, '--workers', '1'], url, ZIP, { code: 0 });
  });

  it("a job's checkpoint directory: the latest completed chk-N is read (said on stderr), its absolute handles from the job's shared/", async () => {
    const url = `${ABFSS}/ckpt/${JOB_ID}/`;
    const local = path.join(localJob, JOB_ID);
    const remote = await expectSameAsLocal((i) => (i === url ? ['inspect', i] : ['inspect', i, '--metadata', 'chk-2']), url, local, { code: 0 });
    expect(remote.stderr).toContain(
      `using chk-2, the latest completed checkpoint of ${url} (chk-3 holds no _metadata: not completed); --metadata chk-N reads another`,
    );
    expect(remote.stdout).toContain('7 of 7 states decoded fully');
    await expectSameAsLocal((i) => (i === url ? ['stats', i, '--workers', '2'] : ['stats', i, '--workers', '2', '--metadata', 'chk-2']), url, local, {
      code: 0,
    });
    const older = await run(['inspect', url, '--metadata', 'chk-1']);
    expect(older.code).toBe(0);
    expect(older.stdout).toContain('checkpoint id 1');
  });

  it('--path-map reads absolute handles from Azure for a local checkpoint folder, and from local files for an Azure one', async () => {
    const chk2 = path.join(localJob, JOB_ID, 'chk-2');
    const sharedUrl = `${ABFSS}/ckpt/${JOB_ID}/shared/`;
    const toAzure = await run(['inspect', chk2, '--path-map', `${WRITTEN_AT}=${ABFSS}/ckpt/`]);
    expect([toAzure.code, toAzure.stdout], toAzure.stderr).toEqual([0, expect.stringContaining('7 of 7 states decoded fully')]);
    expect(toAzure.stdout).toContain(`resolved to '${sharedUrl}`);
    const fromAzure = await run(['inspect', `${WASBS}/ckpt/${JOB_ID}/chk-2`, '--path-map', `${WRITTEN_AT}=file://${localJob}/`]);
    expect([fromAzure.code, fromAzure.stdout], fromAzure.stderr).toEqual([0, expect.stringContaining('7 of 7 states decoded fully')]);
    expect(fromAzure.stdout).toContain(`resolved to 'file://${localJob}/${JOB_ID}/shared/`);
    const plain = await run(['stats', path.join(ROOT, INCREMENTAL, 'chk-2'), '--format', 'json']);
    const mapped = await run(['stats', chk2, '--format', 'json', '--path-map', `${WRITTEN_AT}=${ABFSS}/ckpt/`]);
    const states = (r: { stdout: string }) => (JSON.parse(r.stdout) as { states: unknown }).states;
    expect(states(mapped)).toEqual(states(plain));
  });

  it("a connection string's account key and BlobEndpoint", async () => {
    useEnv({
      AZURE_STORAGE_CONNECTION_STRING: `DefaultEndpointsProtocol=http;AccountName=${ACCOUNT};AccountKey=${ACCOUNT_KEY};BlobEndpoint=${proxy.endpoint};`,
    });
    try {
      const r = await run(['inspect', `${ABFSS}/hashmap/savepoint`]);
      const local = await run(['inspect', HASHMAP]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split(`${ABFSS}/hashmap/savepoint`).join(HASHMAP)).toBe(local.stdout);
      expect(r.stderr).toContain(
        `from ${proxy.endpoint} (BlobEndpoint of AZURE_STORAGE_CONNECTION_STRING), credentials from account key of AZURE_STORAGE_CONNECTION_STRING (account ${ACCOUNT})`,
      );
    } finally {
      useKey();
    }
  });

  it('a header-only inspection reads _metadata and the state headers by range, never a whole state file', async () => {
    proxy.requests.length = 0;
    const r = await run(['inspect', `${ABFSS}/rocksdb/savepoint-7/`, '--headers-only']);
    expect(r.code).toBe(0);
    const lists = proxy.requests.filter((q) => q.url.includes('comp=list'));
    const gets = proxy.requests.filter((q) => q.method === 'GET' && !q.url.includes('comp=list'));
    expect(gets.length).toBeGreaterThan(1);
    // the folder listed (one level to find _metadata, then below it), then ranged GETs only
    expect(lists.length).toBe(2);
    expect(gets.filter((q) => q.range === undefined)).toEqual([]);
  });
});
