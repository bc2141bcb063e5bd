/**
 * `webhdfs://` inputs when HDFS fails, against MiniDFSCluster on 127.0.0.1 (tests/helpers/webhdfs.ts, HDFS
 * permissions on): each failure is one line naming the URL, the WebHDFS endpoint, the user and where it
 * came from, and what HDFS answered, with exit 2 — or, when only a state file fails, that state marked not
 * read and exit 1 from `check`.
 *
 * Made for real by HDFS: a missing file or folder (404 FileNotFoundException), permission denied (403
 * AccessControlException: a file of mode 000 owned by the superuser, read as another user), a state file
 * overwritten after the listing pinned its status. Injected by the loopback proxy, which also carries the
 * DataNode's redirected reads: a connection reset mid-body, once (retried, the same answer) and always
 * (reported).
 *
 * Skipped, and said so, only where java (or a built server and mvn to build it) is absent.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import {
  canRunWebHdfs,
  putFile,
  READER,
  setPermission,
  startHdfsFaultProxy,
  startWebHdfs,
  uploadFolder,
  type HdfsFaultAction,
  type HdfsFaultProxy,
  type RunningHdfs,
} from '../helpers/webhdfs';

const RUN = canRunWebHdfs();
if (!RUN)
  console.warn(
    'tests/object-stores/webhdfs-faults.test.ts: SKIPPED — no java, or no built WebHDFS server and no mvn to build it (scripts/ensure-webhdfs.ts): the WebHDFS failure cases are not tested',
  );

const ROOT = process.cwd();
const HASHMAP = 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint';
const THIN_JAR = 'fixtures/job-jars/jars/thin-4.36.2.jar';

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

function errorLine(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.startsWith('savepoint-inspector '));
  expect(lines.length, stderr).toBe(1);
  return lines[0]!;
}

describe.skipIf(!RUN)('webhdfs:// inputs when HDFS fails', () => {
  let hdfs: RunningHdfs;
  let proxy: HdfsFaultProxy;
  let base: string;
  /** the largest state file's name (it holds keyed state) */
  let stateName: string;
  /** the "where" clause of a message about `file` */
  let by: (file: string) => string;
  const saved = { ...process.env };

  beforeAll(
    async () => {
      hdfs = await startWebHdfs();
      proxy = await startHdfsFaultProxy(hdfs.port);
      base = `webhdfs://${proxy.endpoint.slice('http://'.length)}`;
      by = (file) => `(path ${file}; WebHDFS ${proxy.endpoint} (the webhdfs:// URL); credentials from HADOOP_USER_NAME (WebHDFS user ${READER}))`;
      for (const folder of ['ok', 'denied-metadata', 'denied-state', 'changed', 'changed-workers'])
        await uploadFolder(hdfs.endpoint, path.join(ROOT, HASHMAP), `/${folder}/savepoint/`);
      const local = await run(['inspect', HASHMAP, '--format', 'json', '--handles']);
      const files = [...local.stdout.matchAll(/"path": "([0-9a-f-]{36})",\s*"size": (\d+)/g)].map((m) => ({ name: m[1]!, size: Number(m[2]) }));
      stateName = files.sort((a, b) => b.size - a.size)[0]!.name;
      await setPermission(hdfs.endpoint, '/denied-metadata/savepoint/_metadata', '000');
      await setPermission(hdfs.endpoint, `/denied-state/savepoint/${stateName}`, '000');
    },
    15 * 60 * 1000,
  );

  beforeEach(() => {
    process.env['HADOOP_USER_NAME'] = READER;
    delete process.env['SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT'];
    proxy.setRule(() => 'pass');
  });

  afterAll(async () => {
    process.env = saved;
    await proxy?.close();
    await hdfs?.stop();
  }, 60_000);

  it('a missing folder and a missing _metadata: exit 2, 404 FileNotFoundException named', async () => {
    const folder = await run(['inspect', `${base}/nowhere/savepoint`]);
    expect(folder.code).toBe(2);
    expect(errorLine(folder.stderr)).toContain(
      `expected a savepoint folder, a _metadata, an archive or a job's checkpoint directory at ${base}/nowhere/savepoint ${by('/nowhere/savepoint')}, found no file with that path or prefix`,
    );
    const metadata = await run(['check', `${base}/ok/nothing-here/_metadata`, '--job-jar', THIN_JAR]);
    expect(metadata.code).toBe(2);
    expect(errorLine(metadata.stderr)).toContain(
      `expected ${base}/ok/nothing-here/_metadata ${by('/ok/nothing-here/_metadata')}, found no such file (404 FileNotFoundException)`,
    );
  });

  it('permission denied on _metadata (mode 000, another owner): exit 2, naming the user and where it came from', async () => {
    const r = await run(['inspect', `${base}/denied-metadata/savepoint`]);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(errorLine(r.stderr)).toContain(
      `expected to read ${base}/denied-metadata/savepoint/_metadata ${by('/denied-metadata/savepoint/_metadata')}, found permission denied (403 AccessControlException: Permission denied: user=${READER}, access=READ, inode="/denied-metadata/savepoint/_metadata":sp-admin:supergroup:----------): user ${READER} may not read it`,
    );
  });

  it('permission denied on one state file: that state is not read, check exits 1', async () => {
    const r = await run(['check', `${base}/denied-state/savepoint`, '--job-jar', THIN_JAR]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(
      `found permission denied (403 AccessControlException: Permission denied: user=${READER}, access=READ, inode="/denied-state/savepoint/${stateName}"`,
    );
    // the superuser may read it: the same command as sp-admin reads everything
    process.env['HADOOP_USER_NAME'] = 'sp-admin';
    const admin = await run(['check', `${base}/denied-state/savepoint`, '--job-jar', THIN_JAR]);
    expect(admin.code, admin.stdout).toBe(0);
  });

  it('a connection reset mid-body at the DataNode once: retried, the same answer; always: the state not read, exit 1', async () => {
    const url = `${base}/ok/savepoint`;
    const clean = await run(['check', url, '--job-jar', THIN_JAR]);
    expect(clean.code).toBe(0);
    let resets = 0;
    const isState = (q: { op: string; path: string; dataNode: boolean }) => q.op === 'OPEN' && q.dataNode && q.path === `/ok/savepoint/${stateName}`;
    proxy.setRule((q) => (isState(q) && resets++ === 0 ? 'reset-mid-body' : 'pass'));
    const once = await run(['check', url, '--job-jar', THIN_JAR]);
    expect([once.code, once.stdout]).toEqual([clean.code, clean.stdout]);
    expect(resets).toBeGreaterThan(1);

    proxy.setRule((q) => (isState(q) ? 'reset-mid-body' : 'pass'));
    const always = await run(['check', url, '--job-jar', THIN_JAR]);
    expect(always.code, always.stdout + always.stderr).toBe(1);
    expect(always.stdout).toMatch(
      /found the connection was (reset \(ECONNRESET\)|closed \(UND_ERR_SOCKET\)|closed \(EPIPE\)|cut mid-body \(fewer bytes than its Content-Length\) \(UND_ERR_RES_CONTENT_LENGTH_MISMATCH\)) after 3 attempts/,
    );
    expect(always.stdout).toContain(`${base}/ok/savepoint/${stateName}`);
  });

  it('a state file overwritten after the listing pinned it: an error, never a mixed read', async () => {
    let overwritten = false;
    proxy.setRule(async (q): Promise<HdfsFaultAction> => {
      // overwritten for real in HDFS once _metadata is read, before the state file is
      if (q.op === 'OPEN' && !q.dataNode && q.path === '/changed/savepoint/_metadata' && !overwritten) {
        overwritten = true;
        const bytes = new Uint8Array(readFileSync(path.join(ROOT, HASHMAP, stateName)));
        bytes[bytes.length - 1] ^= 0xff;
        await putFile(hdfs.endpoint, `/changed/savepoint/${stateName}`, bytes);
      }
      return 'pass';
    });
    const r = await run(['check', `${base}/changed/savepoint`, '--job-jar', THIN_JAR]);
    expect(overwritten).toBe(true);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(
      `expected to read ${base}/changed/savepoint/${stateName} ${by(`/changed/savepoint/${stateName}`)} as it was when first read (fileId:length:modificationTime `,
    );
    expect(r.stdout).toContain('found the file changed between reads');
    expect(r.stdout).toContain('(a mixed read is never used)');
  });

  it('stats on 2 worker threads: a file overwritten after the main thread listed it is an error in the worker, not a mixed read', async () => {
    const url = `${base}/changed-workers/savepoint`;
    const clean = await run(['stats', url, '--workers', '2', '--format', 'json']);
    expect(clean.code, clean.stderr).toBe(0);
    let listings = 0;
    proxy.setRule(async (q): Promise<HdfsFaultAction> => {
      // the main thread lists the folder twice (one level to find _metadata, then below it); overwrite before the first worker's listing
      if (q.op === 'LISTSTATUS' && q.path.replace(/\/$/, '') === '/changed-workers/savepoint' && ++listings === 3) {
        const bytes = new Uint8Array(readFileSync(path.join(ROOT, HASHMAP, stateName)));
        bytes[bytes.length - 1] ^= 0xff;
        await putFile(hdfs.endpoint, `/changed-workers/savepoint/${stateName}`, bytes);
      }
      return 'pass';
    });
    const r = await run(['stats', url, '--workers', '2', '--format', 'json']);
    expect(listings).toBeGreaterThanOrEqual(3);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(errorLine(r.stderr)).toContain(
      `expected ${base}/changed-workers/savepoint/${stateName} (path /changed-workers/savepoint/${stateName}; WebHDFS ${proxy.endpoint} (the webhdfs:// URL)) to keep the status (fileId:length:modificationTime) `,
    );
    expect(errorLine(r.stderr)).toContain('it changed between reads (a mixed read is never used)');
  });
});
