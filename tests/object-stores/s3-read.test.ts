/**
 * `s3://` inputs against a real S3-compatible server (versitygw on 127.0.0.1, checking signatures; see
 * tests/helpers/versitygw.ts): fixture savepoints uploaded in the setup give, through `inspect`, `check`,
 * `dump`, `stats` and `export`, the stdout of the same command over the local copy — byte for byte once the
 * input's name (the URL where the local run prints its path) is put back. Also: the `_metadata`, archive and
 * job checkpoint directory forms of a URL, `s3a://`/`s3p://`, absolute handles of an incremental RocksDB
 * checkpoint read through `--path-map` (to S3 and from S3 to local files), the notices on stderr (endpoint,
 * credential source, chosen checkpoint), and that a header-only inspection reads by ranges only.
 *
 * Skipped, and said so, only where neither a built versitygw nor `go` (to build it) is present.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { expectSameBytes } from '../helpers/expect-same-bytes';
import {
  canRunVersitygw,
  createBucket,
  putObject,
  startFaultProxy,
  startVersitygw,
  uploadFolder,
  type FaultProxy,
  type RunningGateway,
} from '../helpers/versitygw';

const RUN = canRunVersitygw();
if (!RUN)
  console.warn(
    'tests/object-stores/s3-read.test.ts: SKIPPED — no versitygw binary and no `go` to build it (scripts/ensure-versitygw.ts): the s3:// inputs are not tested',
  );

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
const BUCKET = 'savepoints';

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

describe.skipIf(!RUN)('s3:// inputs against versitygw', () => {
  let gw: RunningGateway;
  let proxy: FaultProxy;
  let localJob: string;
  const saved = { ...process.env };

  beforeAll(
    async () => {
      gw = await startVersitygw();
      // requests go through a pass-through proxy that counts them
      proxy = await startFaultProxy(gw.port);
      await createBucket(gw.client, BUCKET);
      await uploadFolder(gw.client, BUCKET, path.join(ROOT, HASHMAP), 'hashmap/savepoint/');
      await uploadFolder(gw.client, BUCKET, path.join(ROOT, ROCKSDB), 'rocksdb/savepoint-7/');
      await putObject(gw.client, BUCKET, 'archives/savepoint.zip', readFileSync(path.join(ROOT, ZIP)));
      // the incremental checkpoint as Flink writes it to S3: <job>/chk-N/ with its own files, <job>/shared/ the files absolute handles name,
      // and a chk-3 still in progress (no _metadata); locally the same layout (chk-2 and shared/) for the comparison
      localJob = mkdtempSync(path.join(tmpdir(), 's3-read-job-'));
      for (const chk of ['chk-1', 'chk-2']) {
        const { own, shared } = flinkLayout(chk);
        for (const n of own) await putObject(gw.client, BUCKET, `ckpt/${JOB_ID}/${chk}/${n}`, readFileSync(path.join(ROOT, INCREMENTAL, chk, n)));
        for (const n of shared) await putObject(gw.client, BUCKET, `ckpt/${JOB_ID}/shared/${n}`, readFileSync(path.join(ROOT, INCREMENTAL, chk, n)));
        mkdirSync(path.join(localJob, JOB_ID, 'shared'), { recursive: true });
        for (const n of shared) cpSync(path.join(ROOT, INCREMENTAL, chk, n), path.join(localJob, JOB_ID, 'shared', n));
        if (chk === 'chk-2') {
          mkdirSync(path.join(localJob, JOB_ID, chk), { recursive: true });
          for (const n of own) cpSync(path.join(ROOT, INCREMENTAL, chk, n), path.join(localJob, JOB_ID, chk, n));
        }
      }
      await putObject(gw.client, BUCKET, `ckpt/${JOB_ID}/chk-3/in-progress`, new Uint8Array([1, 2, 3]));
      for (const k of Object.keys(process.env)) if (k.startsWith('AWS_')) delete process.env[k];
      Object.assign(process.env, {
        AWS_ACCESS_KEY_ID: 'inspector-test-access',
        AWS_SECRET_ACCESS_KEY: 'inspector-test-secret-key',
        AWS_ENDPOINT_URL_S3: proxy.endpoint,
        // nothing of the machine's own AWS set-up is read, and no instance metadata is asked for
        AWS_CONFIG_FILE: path.join(localJob, 'no-aws-config'),
        AWS_SHARED_CREDENTIALS_FILE: path.join(localJob, 'no-aws-credentials'),
        AWS_EC2_METADATA_DISABLED: 'true',
      });
    },
    40 * 60 * 1000,
  );

  afterAll(async () => {
    process.env = saved;
    await proxy?.close();
    await gw?.stop();
    if (localJob) rmSync(localJob, { recursive: true, force: true });
  });

  /** Runs the command over the URL and over the local copy; stdout must be the same once the URL is put back as the local name. */
  async function expectSameAsLocal(args: (input: string) => string[], url: string, local: string, extra: { code?: number; replace?: [string, string][] } = {}) {
    const remote = await run(args(url));
    const here = await run(args(local));
    let stdout = remote.stdout.split(url).join(local);
    for (const [from, to] of extra.replace ?? []) stdout = stdout.split(from).join(to);
    expect(stdout).toBe(here.stdout);
    expect(remote.code).toBe(here.code);
    if (extra.code !== undefined) expect(remote.code).toBe(extra.code);
    expect(remote.stderr).toContain(
      `reading ${url} from ${proxy.endpoint} (AWS_ENDPOINT_URL_S3, path-style), credentials from environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)`,
    );
    return remote;
  }

  it("inspect (text and JSON), check, stats and dump of a savepoint folder give the local copy's stdout", async () => {
    const url = `s3://${BUCKET}/hashmap/savepoint`;
    await expectSameAsLocal((i) => ['inspect', i], url, HASHMAP, { code: 0 });
    await expectSameAsLocal((i) => ['inspect', i, '--format', 'json'], url, HASHMAP, { code: 0 });
    await expectSameAsLocal((i) => ['check', i, '--job-jar', THIN_JAR], url, HASHMAP, { code: 0 });
    await expectSameAsLocal((i) => ['check', i, '--job-jar', ADDED_FIELD_JAR, '--format', 'json'], url, HASHMAP, { code: 1 });
    await expectSameAsLocal((i) => ['stats', i, '--workers', '2'], url, HASHMAP, { code: 0 });
    // diff with one side in S3: the same savepoint twice (headers only, and with the values scanned)
    await expectSameAsLocal((i) => ['diff', i, HASHMAP, '--format', 'json'], url, HASHMAP, { code: 0 });
    await expectSameAsLocal((i) => ['diff', HASHMAP, i, '--values'], url, HASHMAP, { code: 0 });
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
    for (const format of ['jsonl', 'parquet']) {
      const remoteFile = path.join(localJob, `remote.${format}`);
      const localFile = path.join(localJob, `local.${format}`);
      const remote = await run([
        'export',
        `s3://${BUCKET}/hashmap/savepoint/`,
        '--operator',
        op.id,
        '--state',
        'last-event',
        '--format',
        format,
        '--output',
        remoteFile,
      ]);
      const here = await run(['export', HASHMAP, '--operator', op.id, '--state', 'last-event', '--format', format, '--output', localFile]);
      expect([remote.code, here.code], remote.stderr).toEqual([0, 0]);
      expectSameBytes(readFileSync(remoteFile), readFileSync(localFile));
      expect(remote.stdout.split(`s3://${BUCKET}/hashmap/savepoint/`).join(HASHMAP).split(remoteFile).join(localFile)).toBe(here.stdout);
    }
  });

  it('a RocksDB native savepoint, named by its _metadata and as s3a:// and s3p://', async () => {
    for (const url of [`s3://${BUCKET}/rocksdb/savepoint-7/_metadata`, `s3a://${BUCKET}/rocksdb/savepoint-7/`, `s3p://${BUCKET}/rocksdb/savepoint-7`]) {
      await expectSameAsLocal((i) => ['inspect', i], url, ROCKSDB, { code: 0 });
      await expectSameAsLocal((i) => ['stats', i, '--workers', '2', '--format', 'json'], url, ROCKSDB, { code: 0 });
    }
  });

  it('an archive object is read by ranges', async () => {
    const url = `s3://${BUCKET}/archives/savepoint.zip`;
    await expectSameAsLocal((i) => ['inspect', i], url, ZIP, { code: 0 });
    await expectSameAsLocal((i) => ['stats', i, '--workers', '1'], url, ZIP, { code: 0 });
  });

  it("a job's checkpoint directory: the latest completed chk-N is read (said on stderr), its absolute handles from the job's shared/", async () => {
    const url = `s3://${BUCKET}/ckpt/${JOB_ID}/`;
    const local = path.join(localJob, JOB_ID);
    const remote = await expectSameAsLocal((i) => (i === url ? ['inspect', i] : ['inspect', i, '--metadata', 'chk-2']), url, local, { code: 0 });
    expect(remote.stderr).toContain(
      `using chk-2, the latest completed checkpoint of ${url} (chk-3 holds no _metadata: not completed); --metadata chk-N reads another`,
    );
    expect(remote.stdout).toContain('7 of 7 states decoded fully');
    await expectSameAsLocal((i) => (i === url ? ['stats', i, '--workers', '2'] : ['stats', i, '--workers', '2', '--metadata', 'chk-2']), url, local, {
      code: 0,
    });
    // --metadata picks another checkpoint
    const older = await run(['inspect', url, '--metadata', 'chk-1']);
    expect(older.code).toBe(0);
    expect(older.stdout).toContain('checkpoint id 1');
  });

  it('--path-map reads absolute handles from S3 for a local checkpoint folder, and from local files for an S3 one', async () => {
    const chk2 = path.join(localJob, JOB_ID, 'chk-2');
    const sharedUrl = `s3://${BUCKET}/ckpt/${JOB_ID}/shared/`;
    // the local chk-2 holds only its own files: its shared files are read from S3
    const toS3 = await run(['inspect', chk2, '--path-map', `${WRITTEN_AT}=s3://${BUCKET}/ckpt/`]);
    expect([toS3.code, toS3.stdout]).toEqual([0, expect.stringContaining('7 of 7 states decoded fully')]);
    expect(toS3.stdout).toContain(`resolved to '${sharedUrl}`);
    // the S3 chk-2 with its shared files mapped to the local copy
    const fromS3 = await run(['inspect', `s3://${BUCKET}/ckpt/${JOB_ID}/chk-2`, '--path-map', `${WRITTEN_AT}=file://${localJob}/`]);
    expect([fromS3.code, fromS3.stdout]).toEqual([0, expect.stringContaining('7 of 7 states decoded fully')]);
    expect(fromS3.stdout).toContain(`resolved to 'file://${localJob}/${JOB_ID}/shared/`);
    // both give the entries of the local read with the files beside _metadata
    const plain = await run(['stats', path.join(ROOT, INCREMENTAL, 'chk-2'), '--format', 'json']);
    const mapped = await run(['stats', chk2, '--format', 'json', '--path-map', `${WRITTEN_AT}=s3://${BUCKET}/ckpt/`]);
    const states = (r: { stdout: string }) => (JSON.parse(r.stdout) as { states: unknown }).states;
    expect(states(mapped)).toEqual(states(plain));
    // without the mapping, the local folder lacks them and says so
    const unmapped = await run(['inspect', chk2, '--headers-only']);
    expect(unmapped.stdout + unmapped.stderr).toMatch(/shared\/ folder/);
  });

  it('a header-only inspection reads _metadata and the state headers by range, never a whole state file', async () => {
    proxy.requests.length = 0;
    const r = await run(['inspect', `s3://${BUCKET}/rocksdb/savepoint-7/`, '--headers-only']);
    expect(r.code).toBe(0);
    const gets = proxy.requests.filter((q) => q.method === 'GET' && !q.url.includes('list-type=2'));
    expect(gets.length).toBeGreaterThan(1);
    // the folder listed (one level to find _metadata, then below it), then ranged GETs only
    expect(proxy.requests.filter((q) => q.url.includes('list-type=2')).length).toBe(2);
    expect(gets.filter((q) => q.range === undefined)).toEqual([]);
  });
});
