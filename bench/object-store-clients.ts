/**
 * Issue #29's client measurement: Apache OpenDAL's Node binding (`opendal`, one interface for every store)
 * against the official SDKs the CLI uses (@aws-sdk/client-s3, @azure/storage-blob, @google-cloud/storage),
 * on the loopback servers of the object-store tests (versitygw, Azurite, fake-gcs-server), for:
 *
 * - range-read latency: sequential 4 KiB ranged reads at random offsets of a 32 MiB object (median, p95);
 * - throughput: the 32 MiB object as 8 ranges of 4 MiB read at once (MiB/s, the median of 3);
 * - startup: a fresh `node` that loads the client, makes it and asks one object's size (median of 5, ms
 *   from the process start);
 * - install size: the package and every package it depends on, as installed in node_modules.
 *
 *   npx tsx bench/object-store-clients.ts            prints the tables (Markdown) to stdout
 *
 * Loopback numbers say what each client costs above the network, not what a cloud region's latency is. The
 * choice and its reasons are in docs/object-stores.md. Needs go (or the built servers) like the tests.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { Storage } from '@google-cloud/storage';
import { ACCOUNT, ACCOUNT_KEY, putBlob, startAzurite } from '../tests/helpers/azurite';
import { putObject as putGcsObject, startFakeGcsServer } from '../tests/helpers/fake-gcs-server';
import { ACCESS_KEY, createBucket, putObject as putS3Object, SECRET_KEY, startVersitygw } from '../tests/helpers/versitygw';

const ROOT = process.cwd();
const OBJECT = 'bench/object.bin';
const SIZE = 32 * 1024 * 1024;
const SMALL = 4096;
const LATENCY_READS = 200;
const PARTS = 8;

type RangeRead = (offset: number, length: number) => Promise<Uint8Array>;

interface Client {
  store: string;
  client: string;
  read: RangeRead;
  /** a CommonJS program that loads the client, makes it and asks the object's size, then prints performance.now() */
  startup: string;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
}

const median = (xs: number[]): number =>
  percentile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

async function measure(c: Client, bytes: Uint8Array): Promise<{ p50: number; p95: number; mibs: number; startup: number }> {
  // correctness first: a range must be those bytes
  const probe = await c.read(SIZE - 1000, 1000);
  if (Buffer.compare(Buffer.from(probe), Buffer.from(bytes.subarray(SIZE - 1000))) !== 0)
    throw new Error(`${c.store}/${c.client}: a ranged read gave other bytes`);
  for (let i = 0; i < 10; i++) await c.read(i * SMALL, SMALL);
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const times: number[] = [];
  for (let i = 0; i < LATENCY_READS; i++) {
    const offset = Math.floor(rand() * (SIZE - SMALL));
    const t = performance.now();
    await c.read(offset, SMALL);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const rates: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    const part = SIZE / PARTS;
    await Promise.all(Array.from({ length: PARTS }, (_, i) => c.read(i * part, part)));
    rates.push(SIZE / 1024 / 1024 / ((performance.now() - t) / 1000));
  }
  const starts: number[] = [];
  for (let r = 0; r < 5; r++) starts.push(Number(execFileSync(process.execPath, ['-e', c.startup], { cwd: ROOT, encoding: 'utf8' }).trim()));
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), mibs: median(rates), startup: median(starts) };
}

/** The packages and every package they need (dependencies, and optional ones that are installed), in bytes on disk. */
function installSize(...names: string[]): { bytes: number; packages: number } {
  const seen = new Set<string>();
  const visit = (pkg: string, from: string) => {
    let dir: string | undefined;
    for (let d = from; ; d = path.dirname(d)) {
      const candidate = path.join(d, 'node_modules', pkg);
      if (existsSync(path.join(candidate, 'package.json'))) {
        dir = candidate;
        break;
      }
      if (d === path.dirname(d)) break;
    }
    if (dir === undefined || seen.has(dir)) return;
    seen.add(dir);
    const json = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const dep of [...Object.keys(json.dependencies ?? {}), ...Object.keys(json.optionalDependencies ?? {})]) visit(dep, dir);
  };
  for (const name of names) visit(name, ROOT);
  const du = (d: string): number =>
    readdirSync(d).reduce((sum, n) => {
      const p = path.join(d, n);
      const s = statSync(p);
      // a nested node_modules holds packages of their own, counted when reached as dependencies
      return sum + (s.isDirectory() ? (n === 'node_modules' ? 0 : du(p)) : s.size);
    }, 0);
  return { bytes: [...seen].reduce((sum, d) => sum + du(d), 0), packages: seen.size };
}

const startupS3Sdk = (endpoint: string) =>
  `const s=require('@aws-sdk/client-s3');const c=new s.S3Client({region:'us-east-1',endpoint:'${endpoint}',forcePathStyle:true,credentials:{accessKeyId:'${ACCESS_KEY}',secretAccessKey:'${SECRET_KEY}'}});c.send(new s.HeadObjectCommand({Bucket:'bench',Key:'${OBJECT}'})).then(()=>console.log(performance.now()))`;
const startupOpendal = (scheme: string, options: Record<string, string>) =>
  `const {Operator}=require('opendal');const op=new Operator('${scheme}',${JSON.stringify(options)});op.stat('${OBJECT}').then(()=>console.log(performance.now()))`;

async function main(): Promise<void> {
  const bytes = new Uint8Array(SIZE);
  for (let i = 0; i < SIZE; i += 4) new DataView(bytes.buffer).setUint32(i, (i * 2654435761) >>> 0);
  process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] = 'true';
  const gw = await startVersitygw();
  const azurite = await startAzurite();
  const gcs = await startFakeGcsServer();
  const rows: string[] = [];
  try {
    await createBucket(gw.client, 'bench');
    await putS3Object(gw.client, 'bench', OBJECT, bytes);
    await azurite.client.createContainer('bench');
    await putBlob(azurite.client, 'bench', OBJECT, bytes);
    await gcs.storage.createBucket('bench');
    await putGcsObject(gcs.storage, 'bench', OBJECT, bytes);

    const s3Options = {
      bucket: 'bench',
      endpoint: gw.endpoint,
      region: 'us-east-1',
      access_key_id: ACCESS_KEY,
      secret_access_key: SECRET_KEY,
      disable_config_load: 'true',
      disable_ec2_metadata: 'true',
    };
    const azOptions = { container: 'bench', endpoint: azurite.endpoint, account_name: ACCOUNT, account_key: ACCOUNT_KEY };
    const gcsOptions = { bucket: 'bench', endpoint: gcs.endpoint, allow_anonymous: 'true', disable_vm_metadata: 'true', disable_config_load: 'true' };
    // the binding is a native module: where its prebuilt binary does not load here, that is the finding, said in the table
    // (tried in a child first: a binding that fails to load throws again outside the import's promise)
    const loads = spawnSync(process.execPath, ['-e', "require('opendal')"], { cwd: ROOT, encoding: 'utf8' });
    const binding =
      loads.status === 0
        ? { Operator: (await import('opendal')).Operator }
        : { error: /GLIBC_[\d.]+' not found[^\n]*/.exec(loads.stderr)?.[0] ?? loads.stderr.split('\n').find((l) => l.startsWith('Error'))! };
    const opendal = (scheme: string, options: Record<string, string>): RangeRead => {
      if ('error' in binding) return () => Promise.reject(new Error(binding.error));
      const op = new binding.Operator(scheme, options);
      return async (offset, length) => op.read(OBJECT, { offset: BigInt(offset), size: BigInt(length) });
    };
    const blob = azurite.client.getContainerClient('bench').getBlobClient(OBJECT);
    const file = (gcs.storage as Storage).bucket('bench').file(OBJECT);
    const clients: Client[] = [
      {
        store: 'S3 (versitygw)',
        client: '@aws-sdk/client-s3',
        read: async (offset, length) => {
          const out = await gw.client.send(new GetObjectCommand({ Bucket: 'bench', Key: OBJECT, Range: `bytes=${offset}-${offset + length - 1}` }));
          return out.Body!.transformToByteArray();
        },
        startup: startupS3Sdk(gw.endpoint),
      },
      { store: 'S3 (versitygw)', client: 'opendal', read: opendal('s3', s3Options), startup: startupOpendal('s3', s3Options) },
      {
        store: 'Azure Blob (Azurite)',
        client: '@azure/storage-blob',
        read: async (offset, length) => blob.downloadToBuffer(offset, length),
        startup: `const a=require('@azure/storage-blob');const c=new a.BlobServiceClient('${azurite.endpoint}',new a.StorageSharedKeyCredential('${ACCOUNT}','${ACCOUNT_KEY}'));c.getContainerClient('bench').getBlobClient('${OBJECT}').getProperties().then(()=>console.log(performance.now()))`,
      },
      { store: 'Azure Blob (Azurite)', client: 'opendal', read: opendal('azblob', azOptions), startup: startupOpendal('azblob', azOptions) },
      {
        store: 'GCS (fake-gcs-server)',
        client: '@google-cloud/storage',
        read: async (offset, length) => (await file.download({ start: offset, end: offset + length - 1, validation: false }))[0],
        startup: `const g=require('@google-cloud/storage');const s=new g.Storage({apiEndpoint:'${gcs.endpoint}',projectId:'bench'});s.bucket('bench').file('${OBJECT}').getMetadata().then(()=>console.log(performance.now()))`,
      },
      { store: 'GCS (fake-gcs-server)', client: 'opendal', read: opendal('gcs', gcsOptions), startup: startupOpendal('gcs', gcsOptions) },
    ];
    rows.push('| store | client | 4 KiB read p50 | p95 | 8 × 4 MiB at once | startup (load, make, 1 request) |', '| --- | --- | ---: | ---: | ---: | ---: |');
    for (const c of clients) {
      const m = await measure(c, bytes).catch((e: unknown) => String((e as Error).message ?? e).split('\n')[0]!);
      if (typeof m === 'string') {
        rows.push(`| ${c.store} | \`${c.client}\` | does not load: ${m.replace(/\|/g, '\\|')} | | | |`);
        process.stderr.write(`${rows[rows.length - 1]}\n`);
        continue;
      }
      rows.push(`| ${c.store} | \`${c.client}\` | ${m.p50.toFixed(2)} ms | ${m.p95.toFixed(2)} ms | ${m.mibs.toFixed(0)} MiB/s | ${m.startup.toFixed(0)} ms |`);
      process.stderr.write(`${rows[rows.length - 1]}\n`);
    }
  } finally {
    await gcs.stop();
    await azurite.stop();
    await gw.stop();
  }
  rows.push('', '| package | installed size | packages |', '| --- | ---: | ---: |');
  for (const name of ['@aws-sdk/client-s3', '@azure/storage-blob', '@google-cloud/storage', 'opendal']) {
    const s = installSize(name);
    rows.push(`| \`${name}\` | ${(s.bytes / 1024 / 1024).toFixed(1)} MiB | ${s.packages} |`);
  }
  const three = installSize('@aws-sdk/client-s3', '@azure/storage-blob', '@google-cloud/storage');
  rows.push(`| the three SDKs together (shared packages once) | ${(three.bytes / 1024 / 1024).toFixed(1)} MiB | ${three.packages} |`);
  console.log(rows.join('\n'));
}

await main();
