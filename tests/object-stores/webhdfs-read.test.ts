/**
 * `hdfs://` and `webhdfs://` inputs against a real HDFS: Hadoop's MiniDFSCluster on 127.0.0.1 with WebHDFS
 * and permissions on (tests/helpers/webhdfs.ts), reached through a pass-through loopback proxy that counts
 * requests. Fixture savepoints uploaded in the setup give, through `inspect`, `check --job-jar`, `dump`,
 * `stats` and `export`, the stdout of the same command over the local copy — byte for byte once the input's
 * name (the URL where the local run prints its path) is put back. Also: the `_metadata`, archive and job
 * checkpoint directory forms of a URL, `hdfs://` through SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT, absolute
 * handles of an incremental RocksDB checkpoint read through `--path-map` from HDFS, the notices on stderr
 * (endpoint, WebHDFS user and where it came from, chosen checkpoint), and that a header-only inspection
 * reads by ranges only (OPEN with offset and length, never a whole state file).
 *
 * Skipped, and said so, only where java (or a built server and mvn to build it) is absent.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { expectSameBytes } from '../helpers/expect-same-bytes';
import { canRunWebHdfs, putFile, READER, startHdfsFaultProxy, startWebHdfs, uploadFolder, type HdfsFaultProxy, type RunningHdfs } from '../helpers/webhdfs';

const RUN = canRunWebHdfs();
if (!RUN)
  console.warn(
    'tests/object-stores/webhdfs-read.test.ts: SKIPPED — no java, or no built WebHDFS server and no mvn to build it (scripts/ensure-webhdfs.ts): the hdfs:// and webhdfs:// inputs are not tested',
  );

const ROOT = process.cwd();
const HASHMAP = 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint';
const ROCKSDB = 'fixtures/savepoints/flink-1.20/rocksdb/native/savepoint';
const ZIP = 'fixtures/savepoints/flink-2.3/rocksdb/canonical-compressed/savepoint.zip';
const INCREMENTAL = 'fixtures/rocksdb-checkpoints/flink-1.20/default-compression';
const JOB_ID = '4b88fb62184edaaf2de7b862ac2095f7';
const WRITTEN_AT = 'file:/tmp/fixture-incremental-11037419022375365011/checkpoints/';
const THIN_JAR = 'fixtures/job-jars/jars/thin-4.36.2.jar';
const ADDED_FIELD_JAR = 'fixtures/job-jars/jars/added-field-4.36.2.jar';

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

function flinkLayout(chk: string): { own: string[]; shared: string[] } {
  const dir = path.join(ROOT, INCREMENTAL, chk);
  const metadata = readFileSync(path.join(dir, '_metadata')).toString('latin1');
  const names = readdirSync(dir).filter((n) => n !== '_metadata');
  return { own: ['_metadata', ...names.filter((n) => !metadata.includes(`/shared/${n}`))], shared: names.filter((n) => metadata.includes(`/shared/${n}`)) };
}

describe.skipIf(!RUN)('hdfs:// and webhdfs:// inputs against MiniDFSCluster', () => {
  let hdfs: RunningHdfs;
  let proxy: HdfsFaultProxy;
  let localJob: string;
  let base: string;
  const saved = { ...process.env };

  beforeAll(
    async () => {
      hdfs = await startWebHdfs();
      proxy = await startHdfsFaultProxy(hdfs.port);
      base = `webhdfs://${proxy.endpoint.slice('http://'.length)}`;
      await uploadFolder(hdfs.endpoint, path.join(ROOT, HASHMAP), '/sp/hashmap/savepoint/');
      await uploadFolder(hdfs.endpoint, path.join(ROOT, ROCKSDB), '/sp/rocksdb/savepoint-7/');
      await putFile(hdfs.endpoint, '/archives/savepoint.zip', readFileSync(path.join(ROOT, ZIP)));
      localJob = mkdtempSync(path.join(tmpdir(), 'webhdfs-read-job-'));
      for (const chk of ['chk-1', 'chk-2']) {
        const { own, shared } = flinkLayout(chk);
        for (const n of own) await putFile(hdfs.endpoint, `/ckpt/${JOB_ID}/${chk}/${n}`, readFileSync(path.join(ROOT, INCREMENTAL, chk, n)));
        for (const n of shared) await putFile(hdfs.endpoint, `/ckpt/${JOB_ID}/shared/${n}`, readFileSync(path.join(ROOT, INCREMENTAL, chk, n)));
        mkdirSync(path.join(localJob, JOB_ID, 'shared'), { recursive: true });
        for (const n of shared) cpSync(path.join(ROOT, INCREMENTAL, chk, n), path.join(localJob, JOB_ID, 'shared', n));
        if (chk === 'chk-2') {
          mkdirSync(path.join(localJob, JOB_ID, chk), { recursive: true });
          for (const n of own) cpSync(path.join(ROOT, INCREMENTAL, chk, n), path.join(localJob, JOB_ID, chk, n));
        }
      }
      await putFile(hdfs.endpoint, `/ckpt/${JOB_ID}/chk-3/in-progress`, new Uint8Array([1, 2, 3]));
      process.env['HADOOP_USER_NAME'] = READER;
      delete process.env['SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT'];
    },
    15 * 60 * 1000,
  );

  afterAll(async () => {
    process.env = saved;
    await proxy?.close();
    await hdfs?.stop();
    if (localJob) rmSync(localJob, { recursive: true, force: true });
  }, 60_000);

  async function expectSameAsLocal(args: (input: string) => string[], url: string, local: string, extra: { code?: number } = {}) {
    const remote = await run(args(url));
    const here = await run(args(local));
    expect(remote.stdout.split(url).join(local)).toBe(here.stdout);
    expect(remote.code, remote.stderr).toBe(here.code);
    if (extra.code !== undefined) expect(remote.code).toBe(extra.code);
    expect(remote.stderr).toContain(
      `reading ${url} from WebHDFS ${proxy.endpoint} (the webhdfs:// URL), credentials from HADOOP_USER_NAME (WebHDFS user ${READER})`,
    );
    return remote;
  }

  it("inspect (text and JSON), check --job-jar, stats and dump of a savepoint folder give the local copy's stdout", async () => {
    const url = `${base}/sp/hashmap/savepoint`;
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
    const url = `${base}/sp/hashmap/savepoint/`;
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

  it('a RocksDB native savepoint named by its _metadata, and as hdfs:// through SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT', async () => {
    await expectSameAsLocal((i) => ['inspect', i], `${base}/sp/rocksdb/savepoint-7/_metadata`, ROCKSDB, { code: 0 });
    await expectSameAsLocal((i) => ['stats', i, '--workers', '2', '--format', 'json'], `${base}/sp/rocksdb/savepoint-7/`, ROCKSDB, { code: 0 });
    process.env['SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT'] = proxy.endpoint;
    try {
      const url = 'hdfs://namenode:8020/sp/rocksdb/savepoint-7';
      const remote = await run(['inspect', url]);
      const here = await run(['inspect', ROCKSDB]);
      expect([remote.code, remote.stdout.split(url).join(ROCKSDB)]).toEqual([0, here.stdout]);
      expect(remote.stderr).toContain(
        `reading ${url} from WebHDFS ${proxy.endpoint} (SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT), credentials from HADOOP_USER_NAME (WebHDFS user ${READER})`,
      );
    } finally {
      delete process.env['SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT'];
    }
  });

  it('an archive file is read by ranges', async () => {
    const url = `${base}/archives/savepoint.zip`;
    await expectSameAsLocal((i) => ['inspect', i], url, ZIP, { code: 0 });
    await expectSameAsLocal((i) => ['stats', i, '--workers', '1'], url, ZIP, { code: 0 });
  });

  it("a job's checkpoint directory: the latest completed chk-N is read (said on stderr), its absolute handles from the job's shared/", async () => {
    const url = `${base}/ckpt/${JOB_ID}/`;
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

  it('--path-map reads the absolute handles of a local incremental RocksDB checkpoint from HDFS', async () => {
    const chk2 = path.join(localJob, JOB_ID, 'chk-2');
    process.env['SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT'] = proxy.endpoint;
    try {
      const toHdfs = await run(['inspect', chk2, '--path-map', `${WRITTEN_AT}=hdfs://namenode:8020/ckpt/`]);
      expect([toHdfs.code, toHdfs.stdout], toHdfs.stderr).toEqual([0, expect.stringContaining('7 of 7 states decoded fully')]);
      expect(toHdfs.stdout).toContain(`resolved to 'hdfs://namenode:8020/ckpt/${JOB_ID}/shared/`);
      const plain = await run(['stats', path.join(ROOT, INCREMENTAL, 'chk-2'), '--format', 'json']);
      const mapped = await run(['stats', chk2, '--format', 'json', '--path-map', `${WRITTEN_AT}=hdfs://namenode:8020/ckpt/`]);
      const states = (r: { stdout: string }) => (JSON.parse(r.stdout) as { states: unknown }).states;
      expect(states(mapped)).toEqual(states(plain));
    } finally {
      delete process.env['SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT'];
    }
  });

  it('a header-only inspection lists the folder and reads _metadata and the state headers by ranges (OPEN with offset and length), never a whole state file', async () => {
    proxy.requests.length = 0;
    const r = await run(['inspect', `${base}/sp/rocksdb/savepoint-7/`, '--headers-only']);
    expect(r.code, r.stderr).toBe(0);
    const opens = proxy.requests.filter((q) => q.op === 'OPEN' && !q.dataNode);
    expect(opens.length).toBeGreaterThan(1);
    expect(opens.filter((q) => !/[?&]offset=\d+/.test(q.url) || !/[?&]length=\d+/.test(q.url))).toEqual([]);
    // every OPEN went on to the DataNode the NameNode redirected to
    expect(proxy.requests.filter((q) => q.op === 'OPEN' && q.dataNode).length).toBe(opens.length);
    const local = JSON.parse((await run(['inspect', ROCKSDB, '--format', 'json', '--handles'])).stdout) as unknown;
    const sizes = [...JSON.stringify(local).matchAll(/"size":(\d+)/g)].map((m) => Number(m[1]));
    const largest = Math.max(...sizes);
    expect(opens.some((q) => Number(/[?&]length=(\d+)/.exec(q.url)![1]) >= largest && !q.path.endsWith('_metadata'))).toBe(false);
  });
});
