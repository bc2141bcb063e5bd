/**
 * The CLI's Azure Blob client: @azure/storage-blob, reaching ADLS Gen2 (`abfs://`, `abfss://`) and Blob
 * (`wasb://`, `wasbs://`) accounts alike through the Blob endpoint. Credentials as Azure's own tools find
 * them, never a flag holding a secret, first found wins:
 *
 * 1. `AZURE_STORAGE_CONNECTION_STRING` (its AccountKey or SharedAccessSignature, its BlobEndpoint);
 * 2. `AZURE_STORAGE_KEY` (shared key; the account `AZURE_STORAGE_ACCOUNT`, else the URL's);
 * 3. `AZURE_STORAGE_SAS_TOKEN` (a SAS appended to every request);
 * 4. `DefaultAzureCredential` (@azure/identity: environment service principal, workload identity as on
 *    AKS, managed identity, Azure CLI, Azure Developer CLI, Azure PowerShell).
 *
 * `AZURE_STORAGE_BLOB_ENDPOINT` (or the connection string's BlobEndpoint, or UseDevelopmentStorage=true)
 * points it at another endpoint, an emulator such as Azurite (`http://127.0.0.1:10000/devstoreaccount1`).
 * Throttling (503 ServerBusy, 429) and transient failures are retried with exponential backoff and jitter,
 * 3 attempts (azure-retry-policy.ts, in the client's pipeline: the SDK's own policy waits nothing before its
 * first retry and never retries 429); a download broken mid-body is read again the same way, with the ETag
 * still required. Every failure becomes a one-line DecodeError naming container, blob, account, credential
 * source and answer.
 *
 * The SDK is imported when the first Azure URL is opened, so other commands never load it.
 */
import type { BlobServiceClient, ContainerClient } from '@azure/storage-blob';
import { DecodeError, formatAzureUrl, isDecodeError, type AzureLocation } from '../../../core/io';
import { backoffMs, sleep } from '../backoff';
import { azureRetryPolicy } from './azure-retry-policy';
import { azureWhere, describeAzureFailure, type AzureOperation } from './describe-azure-failure';

export interface AzureBlobInfo {
  readonly blob: string;
  readonly size: number;
  /** the ETag the store gave, quoted */
  readonly etag: string;
}

export interface AzureListing {
  readonly blobs: readonly AzureBlobInfo[];
  /** the "folders" right below the prefix (with a delimiter), each ending in '/' */
  readonly prefixes: readonly string[];
}

/** Where a store's blobs are: the URL's scheme and host (for naming them), its container and account. */
export type AzureAt = Pick<AzureLocation, 'scheme' | 'container' | 'host' | 'account'>;

/** One storage account's client. */
export interface AzureStore {
  /** where requests go, for messages: `https://acct.blob.core.windows.net` or `http://127.0.0.1:10000/devstoreaccount1 (AZURE_STORAGE_BLOB_ENDPOINT)` */
  readonly endpoint: string;
  /** how the credentials were found (checked once, before the first request); none is a DecodeError naming the blob */
  credentialSource(at: AzureAt, blob: string): Promise<string>;
  /** the blob's size and ETag, or undefined when there is no such blob (a missing container is an error) */
  head(at: AzureAt, blob: string): Promise<AzureBlobInfo | undefined>;
  /** exactly [offset, offset + length) of the blob as it was when `etag` was read; a changed blob is an error */
  readRange(at: AzureAt, blob: string, offset: number, length: number, etag: string): Promise<Uint8Array>;
  /** the blobs below `prefix` (all of them, or with `delimiter: '/'` one level), at most `maxObjects`; ADLS Gen2 directory markers are left out */
  list(at: AzureAt, prefix: string, options?: { delimiter?: string; maxObjects?: number }): Promise<AzureListing>;
}

export type AzureEnv = Record<string, string | undefined>;

const DEFAULT_CREDENTIAL =
  'DefaultAzureCredential (environment service principal, workload identity, managed identity, Azure CLI, Azure Developer CLI or Azure PowerShell)';

/** The fields of a storage connection string (`Key=Value;…`, a value may hold '='). */
export function parseConnectionString(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of s.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) out[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return out;
}

export type AzureAuth =
  { kind: 'key'; account: string; key: string; source: string } | { kind: 'sas'; sas: string; source: string } | { kind: 'default'; source: string };

/**
 * The Blob endpoint and the credentials the environment gives for `account` (whose URLs name `host`):
 * the endpoint's URL, how it was found (for messages), and the credential kind and its source's name.
 */
export function resolveAzureSetup(account: string, host: string, env: AzureEnv): { url: string; setting?: string; auth: AzureAuth } {
  const cs = env['AZURE_STORAGE_CONNECTION_STRING'] ? parseConnectionString(env['AZURE_STORAGE_CONNECTION_STRING']) : undefined;
  const dev = cs !== undefined && /^true$/i.test(cs['UseDevelopmentStorage'] ?? '');
  let url: string;
  let setting: string | undefined;
  if (env['AZURE_STORAGE_BLOB_ENDPOINT']) {
    url = env['AZURE_STORAGE_BLOB_ENDPOINT'];
    setting = 'AZURE_STORAGE_BLOB_ENDPOINT';
  } else if (cs?.['BlobEndpoint']) {
    url = cs['BlobEndpoint'];
    setting = 'BlobEndpoint of AZURE_STORAGE_CONNECTION_STRING';
  } else if (dev) {
    url = 'http://127.0.0.1:10000/devstoreaccount1';
    setting = 'UseDevelopmentStorage of AZURE_STORAGE_CONNECTION_STRING';
  } else {
    // the URL's host with its service label (dfs or blob) as blob: other clouds' suffixes kept
    const suffix = host.split('.').slice(2).join('.') || 'core.windows.net';
    url = `${cs?.['DefaultEndpointsProtocol'] ?? 'https'}://${account}.blob.${cs?.['EndpointSuffix'] ?? suffix}`;
  }
  url = url.replace(/\/+$/, '');
  let auth: AzureAuth;
  if (cs !== undefined && (cs['AccountKey'] || dev)) {
    // the development storage's well-known account and key (published by Microsoft for Azurite and the emulator)
    const key = cs['AccountKey'] ?? 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
    const name = cs['AccountName'] ?? (dev ? 'devstoreaccount1' : account);
    auth = { kind: 'key', account: name, key, source: `account key of AZURE_STORAGE_CONNECTION_STRING (account ${name})` };
  } else if (cs !== undefined && cs['SharedAccessSignature']) {
    auth = { kind: 'sas', sas: cs['SharedAccessSignature'], source: 'SAS token of AZURE_STORAGE_CONNECTION_STRING' };
  } else if (env['AZURE_STORAGE_KEY']) {
    const name = env['AZURE_STORAGE_ACCOUNT'] || account;
    auth = {
      kind: 'key',
      account: name,
      key: env['AZURE_STORAGE_KEY'],
      source: `account key (AZURE_STORAGE_KEY, account ${name}${env['AZURE_STORAGE_ACCOUNT'] ? ' from AZURE_STORAGE_ACCOUNT' : ''})`,
    };
  } else if (env['AZURE_STORAGE_SAS_TOKEN']) {
    auth = { kind: 'sas', sas: env['AZURE_STORAGE_SAS_TOKEN'], source: 'SAS token (AZURE_STORAGE_SAS_TOKEN)' };
  } else {
    auth = { kind: 'default', source: DEFAULT_CREDENTIAL };
  }
  return { url, ...(setting === undefined ? {} : { setting }), auth };
}

const quoted = (etag: string | undefined): string => (etag === undefined || etag === '' ? '' : etag.startsWith('"') ? etag : `"${etag}"`);

/** Creates the client of one storage account for one command; nothing is sent until the first call. */
export async function createAzureStore(account: string, host: string, env: AzureEnv = process.env): Promise<AzureStore> {
  const sdk = await import('@azure/storage-blob');
  const setup = resolveAzureSetup(account, host, env);
  const where = setup.setting === undefined ? setup.url : `${setup.url} (${setup.setting})`;
  const seconds = Number(env['SAVEPOINT_INSPECTOR_HTTP_TIMEOUT'] ?? 10);
  const timeoutMs = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : 10_000;
  const maxTries = 3;
  // the SDK's own retry policy gets one try: azureRetryPolicy, outside it, retries with backoff and jitter (429 too)
  const pipelineOf = (credential: Parameters<typeof sdk.newPipeline>[0]) => {
    const pipeline = sdk.newPipeline(credential, { retryOptions: { maxTries: 1, tryTimeoutInMs: Math.max(60_000, timeoutMs * 6) } });
    pipeline.factories.push(azureRetryPolicy({ maxTries }));
    return pipeline;
  };
  const auth = setup.auth;
  let service: BlobServiceClient;
  /** DefaultAzureCredential: one token asked for before the first request, so that having none is said as such */
  let tokenCheck: (() => Promise<void>) | undefined;
  if (auth.kind === 'key') {
    service = new sdk.BlobServiceClient(setup.url, pipelineOf(new sdk.StorageSharedKeyCredential(auth.account, auth.key)));
  } else if (auth.kind === 'sas') {
    service = new sdk.BlobServiceClient(`${setup.url}?${auth.sas.replace(/^\?/, '')}`, pipelineOf(new sdk.AnonymousCredential()));
  } else {
    const identity = await import('@azure/identity');
    const credential = new identity.DefaultAzureCredential();
    service = new sdk.BlobServiceClient(setup.url, pipelineOf(credential));
    let checked: Promise<void> | undefined;
    tokenCheck = () => (checked ??= credential.getToken('https://storage.azure.com/.default').then(() => undefined));
  }
  const containers = new Map<string, ContainerClient>();
  const containerOf = (at: AzureAt): ContainerClient => {
    let c = containers.get(at.container);
    if (c === undefined) containers.set(at.container, (c = service.getContainerClient(at.container)));
    return c;
  };

  const requireCredentials = async (at: AzureAt, blob: string): Promise<string> => {
    if (tokenCheck !== undefined) {
      try {
        await tokenCheck();
      } catch (e) {
        const url = formatAzureUrl(at, blob);
        const said = e instanceof Error ? e.message.split('\n')[0]! : String(e);
        throw new DecodeError({
          code: 'network',
          file: url,
          detail: `expected Azure credentials to read ${url} (${azureWhere(at, blob, where)}), found none: no AZURE_STORAGE_CONNECTION_STRING, AZURE_STORAGE_KEY or AZURE_STORAGE_SAS_TOKEN in the environment, and ${DEFAULT_CREDENTIAL} gave no token: ${said}`,
          cause: e,
        });
      }
    }
    return auth.source;
  };

  const fail = (op: AzureOperation, at: AzureAt, blob: string, e: unknown, extra: { offset?: number } = {}): never => {
    if (isDecodeError(e)) throw e;
    const attempts = (e as { attempts?: unknown } | undefined)?.attempts;
    throw describeAzureFailure({
      op,
      at,
      blob,
      error: e,
      credentialSource: auth.source,
      endpoint: where,
      ...extra,
      ...(typeof attempts === 'number' ? { attempts } : {}),
    });
  };

  const isMarker = (metadata: Record<string, string> | undefined): boolean => /^true$/i.test(metadata?.['hdi_isfolder'] ?? '');

  const list: AzureStore['list'] = async (at, prefix, opts = {}) => {
    await requireCredentials(at, prefix);
    const blobs: AzureBlobInfo[] = [];
    const prefixes: string[] = [];
    const max = opts.maxObjects ?? Number.POSITIVE_INFINITY;
    const pageSize = Math.min(5000, Number.isFinite(max) ? Math.max(1, max) : 5000);
    const container = containerOf(at);
    try {
      const pages = opts.delimiter
        ? container.listBlobsByHierarchy(opts.delimiter, { prefix, includeMetadata: true }).byPage({ maxPageSize: pageSize })
        : container.listBlobsFlat({ prefix, includeMetadata: true }).byPage({ maxPageSize: pageSize });
      for await (const page of pages) {
        const segment = page.segment as {
          blobItems: { name: string; metadata?: Record<string, string>; properties: { contentLength?: number; etag?: string } }[];
          blobPrefixes?: { name: string }[];
        };
        for (const item of segment.blobItems) {
          if (isMarker(item.metadata)) continue;
          blobs.push({ blob: item.name, size: item.properties.contentLength ?? 0, etag: quoted(item.properties.etag) });
        }
        for (const p of segment.blobPrefixes ?? []) prefixes.push(p.name);
        if (blobs.length >= max) break;
      }
    } catch (e) {
      return fail('LIST', at, prefix, e);
    }
    return { blobs, prefixes };
  };

  /** One ranged GET pinned to `etag`; a failure is the one-line DecodeError (its cause the SDK's or the body's error, for isBrokenTransfer). */
  const readOnce = async (at: AzureAt, blob: string, offset: number, length: number, etag: string, attempt: number): Promise<Uint8Array> => {
    const client = containerOf(at).getBlobClient(blob);
    const range = `bytes ${offset}–${offset + length - 1}`;
    let out;
    try {
      // no resuming inside the SDK (its stream reports a reset as an abort): a broken body is read again by readRange
      out = await client.download(offset, length, { ...(etag === '' ? {} : { conditions: { ifMatch: etag } }), maxRetryRequests: 0 });
    } catch (e) {
      const r = e as { statusCode?: number; details?: { errorCode?: string } };
      if (r.statusCode === 412) {
        // overwritten or deleted since its ETag was pinned: the blob as it is now tells which
        const now = await client.getProperties().catch((h: unknown) => ((h as { statusCode?: number }).statusCode === 404 ? null : undefined));
        if (now === null)
          return fail(
            'GET',
            at,
            blob,
            Object.assign(new Error('The specified blob does not exist.'), { statusCode: 404, details: { errorCode: 'BlobNotFound' }, deleted: true }),
            { offset },
          );
        if (now !== undefined) Object.assign(e as object, { found: quoted(now.etag) });
      }
      return fail('GET', at, blob, e, { offset });
    }
    if (etag !== '' && out.etag !== undefined && quoted(out.etag) !== etag) {
      (out.readableStreamBody as { destroy?: () => void } | undefined)?.destroy?.();
      return fail(
        'GET',
        at,
        blob,
        Object.assign(new Error('changed'), { statusCode: 412, details: { errorCode: 'ConditionNotMet' }, found: quoted(out.etag) }),
        { offset },
      );
    }
    try {
      return await readBody(out.readableStreamBody, out.contentLength, length, range);
    } catch (e) {
      return fail('GET', at, blob, attempt > 1 ? Object.assign(e as object, { attempts: attempt }) : e, { offset });
    }
  };

  return {
    endpoint: where,
    credentialSource: requireCredentials,
    async head(at, blob) {
      await requireCredentials(at, blob);
      try {
        const out = await containerOf(at).getBlobClient(blob).getProperties();
        if (isMarker(out.metadata)) return undefined;
        return { blob, size: out.contentLength ?? 0, etag: quoted(out.etag) };
      } catch (e) {
        const r = e as { statusCode?: number; details?: { errorCode?: string } };
        // HEAD has no body, but the x-ms-error-code header tells a missing blob from a missing container
        if (r.statusCode === 404 && r.details?.errorCode !== 'ContainerNotFound') return undefined;
        // nor a message: a 403's reason comes with a 1-byte GET
        if (r.statusCode === 403) {
          try {
            await containerOf(at).getBlobClient(blob).download(0, 1);
          } catch (coded) {
            return fail('HEAD', at, blob, coded);
          }
        }
        return fail('HEAD', at, blob, e);
      }
    },
    async readRange(at, blob, offset, length, etag) {
      await requireCredentials(at, blob);
      // the pipeline retries a request that fails before its answer; a transfer broken mid-body is read again here, with the same backoff
      for (let attempt = 1; ; attempt++) {
        try {
          return await readOnce(at, blob, offset, length, etag, attempt);
        } catch (e) {
          if (!isBrokenTransfer(e) || attempt >= maxTries) throw e;
          await sleep(backoffMs(attempt));
        }
      }
    },
    list,
  };
}

/** The body of a range answer, into a buffer of exactly `length` bytes: more, fewer or a failed transfer is an error. */
async function readBody(body: NodeJS.ReadableStream | undefined, contentLength: number | undefined, length: number, range: string): Promise<Uint8Array> {
  const stream = body as (AsyncIterable<Uint8Array> & { destroy?: () => void }) | undefined;
  if (contentLength !== undefined && contentLength !== length) {
    stream?.destroy?.();
    throw Object.assign(new Error(`the store answered ${contentLength} bytes for ${range} (${length} asked)`), { name: 'ShortRange' });
  }
  if (stream === undefined) throw Object.assign(new Error(`no body for ${range}`), { name: 'ShortRange' });
  const bytes = new Uint8Array(length);
  let got = 0;
  try {
    for await (const chunk of stream) {
      if (got + chunk.length > length) {
        stream.destroy?.();
        throw Object.assign(new Error(`the store sent more than the ${length} bytes of ${range}`), { name: 'ShortRange' });
      }
      bytes.set(chunk, got);
      got += chunk.length;
    }
  } catch (e) {
    if ((e as { name?: string }).name === 'ShortRange') throw e;
    // the SDK's stream says a connection closed mid-body as "aborted" (an AbortError) or "received less data": a reset, not a timeout
    throw Object.assign(new Error(`read ECONNRESET after ${got} of the ${length} bytes of ${range}`), { code: 'ECONNRESET', cause: e });
  }
  if (got < length) throw Object.assign(new Error(`the answer ended after ${got} of the ${length} bytes of ${range}`), { name: 'ShortRange' });
  return bytes;
}

/** A GET whose answer began and then broke (reset, short): worth another try. */
function isBrokenTransfer(e: unknown): boolean {
  const cause = (e as { cause?: { code?: unknown; name?: string } }).cause;
  return isDecodeError(e) && cause !== undefined && (cause.code === 'ECONNRESET' || cause.name === 'ShortRange');
}
