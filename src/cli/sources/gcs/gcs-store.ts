/**
 * The CLI's Google Cloud Storage client: @google-cloud/storage with Application Default Credentials, as
 * Google's own tools find them — never a flag holding a secret: `GOOGLE_APPLICATION_CREDENTIALS` (a
 * service-account key or an external-account / workload-identity-federation file), gcloud's ADC file
 * (`gcloud auth application-default login`: `~/.config/gcloud/application_default_credentials.json`, or
 * under `CLOUDSDK_CONFIG`), then the metadata server (GCE, GKE workload identity, Cloud Run).
 * `STORAGE_EMULATOR_HOST` points it at an emulator (fake-gcs-server), which takes no credentials.
 *
 * Every read is pinned to the object's generation, read on first sight (the listing or a HEAD):
 * `generation=N` on every ranged GET, so an object overwritten between two reads is an error, never a
 * mixed read. The client retries throttling (429, 503) and transient failures with exponential backoff
 * and jitter; a transfer broken mid-body is retried here the same way. Every failure becomes a one-line
 * DecodeError naming the bucket and object, the credential source and what the store answered
 * (describe-gcs-failure.ts).
 *
 * The client is imported when the first gs:// URL is opened, so other commands never load it.
 */
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { File, Storage } from '@google-cloud/storage';
import { DecodeError, formatGcsUrl, isDecodeError } from '../../../core/io';
import { describeGcsFailure, gcsWhere, type GcsOperation } from './describe-gcs-failure';

export interface GcsObjectInfo {
  readonly key: string;
  readonly size: number;
  /** the object's generation, as a decimal string */
  readonly generation: string;
}

export interface GcsListing {
  readonly objects: readonly GcsObjectInfo[];
  /** the "folders" right below the prefix (with a delimiter), each ending in '/' */
  readonly prefixes: readonly string[];
}

export interface GcsStore {
  /** where requests go, for messages: `Google Cloud Storage (https://storage.googleapis.com)` or `http://127.0.0.1:4443 (STORAGE_EMULATOR_HOST)` */
  readonly endpoint: string;
  /** how the credentials were found (checked once, before the first request); none is a DecodeError naming `bucket` and `key` */
  credentialSource(bucket: string, key: string): Promise<string>;
  /** the object's size and generation, or undefined when there is no such object (a missing bucket is an error) */
  head(bucket: string, key: string): Promise<GcsObjectInfo | undefined>;
  /** exactly [offset, offset + length) of generation `generation` of the object; a changed object is an error */
  readRange(bucket: string, key: string, offset: number, length: number, generation: string): Promise<Uint8Array>;
  /** the objects below `prefix` (all of them, or with `delimiter: '/'` one level), at most `maxObjects` */
  list(bucket: string, prefix: string, options?: { delimiter?: string; maxObjects?: number }): Promise<GcsListing>;
}

export type GcsEnv = Record<string, string | undefined>;

const ADC_CHAIN = 'GOOGLE_APPLICATION_CREDENTIALS, gcloud auth application-default login, or the metadata server of GCE/GKE/Cloud Run';

/** The emulator STORAGE_EMULATOR_HOST names (a scheme added when it has none), or undefined. */
export function resolveGcsEmulator(env: GcsEnv): string | undefined {
  const host = env['STORAGE_EMULATOR_HOST'];
  if (!host) return undefined;
  // Google's clients take a host (`localhost:4443`), Node's own a base URL (`http://localhost:4443/storage/v1`): both are accepted
  return (/^https?:\/\//i.test(host) ? host : `http://${host}`).replace(/\/+$/, '').replace(/\/storage\/v1$/, '');
}

/** Which Application Default Credentials source will answer, as Google's client looks for them (first found wins). */
export function nameGcsCredentialSource(env: GcsEnv, exists: (file: string) => boolean = existsSync): string {
  if (resolveGcsEmulator(env) !== undefined) return 'none: STORAGE_EMULATOR_HOST names an emulator (no credentials sent)';
  const file = env['GOOGLE_APPLICATION_CREDENTIALS'];
  if (file) return `Application Default Credentials: GOOGLE_APPLICATION_CREDENTIALS (${file})`;
  const gcloud = path.join(env['CLOUDSDK_CONFIG'] ?? path.join(env['HOME'] ?? homedir(), '.config', 'gcloud'), 'application_default_credentials.json');
  if (exists(gcloud)) return `Application Default Credentials: gcloud's application-default login (${gcloud})`;
  return 'Application Default Credentials: the metadata server (GCE, GKE, Cloud Run)';
}

/** Creates the store client for one command; nothing is sent until the first call. */
export async function createGcsStore(env: GcsEnv = process.env): Promise<GcsStore> {
  const sdk = await import('@google-cloud/storage');
  // the client's media download (teeny-request's pipeline) puts 11 error and 11 close listeners on a stream of
  // its own: over Node's default threshold of 10, so Node would print a MaxListenersExceededWarning on stderr.
  // A fixed number, not a leak: a full `stats` scan with the threshold at 12 prints none.
  EventEmitter.defaultMaxListeners = Math.max(EventEmitter.defaultMaxListeners, 12);
  const emulator = resolveGcsEmulator(env);
  const seconds = Number(env['SAVEPOINT_INSPECTOR_HTTP_TIMEOUT'] ?? 10);
  const timeoutMs = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : 10_000;
  const maxAttempts = 3;
  // the client takes STORAGE_EMULATOR_HOST from the environment as its base URL, as it is (without /storage/v1 when
  // given as Google's other clients take it): it is given as apiEndpoint instead, read while the variable is unset
  const given = process.env['STORAGE_EMULATOR_HOST'];
  delete process.env['STORAGE_EMULATOR_HOST'];
  let storage: Storage;
  try {
    storage = new sdk.Storage({
      ...(emulator === undefined ? {} : { apiEndpoint: emulator, projectId: env['GOOGLE_CLOUD_PROJECT'] ?? 'savepoint-inspector' }),
      timeout: timeoutMs,
      // the client's retries: exponential backoff with jitter, for 429, 5xx and connection failures
      retryOptions: {
        autoRetry: true,
        maxRetries: maxAttempts - 1,
        retryDelayMultiplier: 2,
        maxRetryDelay: 2,
        totalTimeout: Math.max(60, (timeoutMs / 1000) * 6),
      },
    });
  } finally {
    if (given !== undefined) process.env['STORAGE_EMULATOR_HOST'] = given;
  }
  const where = emulator === undefined ? 'Google Cloud Storage (https://storage.googleapis.com)' : `${emulator} (STORAGE_EMULATOR_HOST)`;
  const source = nameGcsCredentialSource(env);

  let checked: Promise<void> | undefined;
  /** the credential source, or the one-line error naming what could not be read for want of credentials (asked once) */
  const requireCredentials = async (bucket: string, key: string): Promise<string> => {
    if (emulator !== undefined) return source;
    try {
      await (checked ??= storage.authClient.getAccessToken().then(() => undefined));
    } catch (e) {
      const url = formatGcsUrl(bucket, key);
      const said = e instanceof Error ? e.message.split('\n')[0]! : String(e);
      throw new DecodeError({
        code: 'network',
        file: url,
        detail: `expected Google credentials to read ${url} (${gcsWhere(bucket, key, where)}), found none usable in Application Default Credentials (${ADC_CHAIN}): ${said}`,
        cause: e,
      });
    }
    return source;
  };

  const fail = (op: GcsOperation, bucket: string, key: string, e: unknown, extra: { offset?: number } = {}): never => {
    if (isDecodeError(e)) throw e;
    throw describeGcsFailure({ op, bucket, key, error: e, credentialSource: source, endpoint: where, ...extra });
  };

  const statusOf = (e: unknown): number | undefined => {
    const code = (e as { code?: unknown }).code;
    return typeof code === 'number' ? code : undefined;
  };

  /** a 404 on an object: a missing object, or its whole bucket missing (which the bucket tells) */
  const bucketMissing = async (bucket: string, key: string, e: unknown, op: GcsOperation): Promise<void> => {
    const [exists] = await storage
      .bucket(bucket)
      .exists()
      .catch((b: unknown) => fail(op, bucket, key, b));
    if (!exists) fail(op, bucket, key, Object.assign(new Error('The specified bucket does not exist.'), { code: 404, cause: e }));
  };

  const list: GcsStore['list'] = async (bucket, prefix, options = {}) => {
    await requireCredentials(bucket, prefix);
    const objects: GcsObjectInfo[] = [];
    const prefixes: string[] = [];
    const max = options.maxObjects ?? Number.POSITIVE_INFINITY;
    let pageToken: string | undefined;
    do {
      let files: File[];
      let next: { pageToken?: string } | null;
      let raw: { prefixes?: string[] } | undefined;
      try {
        [files, next, raw] = (await storage.bucket(bucket).getFiles({
          prefix,
          autoPaginate: false,
          maxResults: Math.min(1000, Number.isFinite(max) ? Math.max(1, max - objects.length) : 1000),
          ...(options.delimiter ? { delimiter: options.delimiter } : {}),
          ...(pageToken ? { pageToken } : {}),
        })) as unknown as [File[], { pageToken?: string } | null, { prefixes?: string[] }];
      } catch (e) {
        if (statusOf(e) === 404) return fail('LIST', bucket, prefix, Object.assign(e as object, { message: 'The specified bucket does not exist.' }));
        return fail('LIST', bucket, prefix, e);
      }
      for (const f of files) objects.push({ key: f.name, size: Number(f.metadata.size ?? 0), generation: String(f.metadata.generation ?? '') });
      for (const p of raw?.prefixes ?? []) prefixes.push(p);
      pageToken = next?.pageToken;
    } while (pageToken !== undefined && objects.length < max);
    return { objects, prefixes };
  };

  /** One ranged GET of one generation; a failure is the one-line DecodeError (its cause the client's or the stream's error). */
  const readOnce = async (bucket: string, key: string, offset: number, length: number, generation: string, attempt: number): Promise<Uint8Array> => {
    const file = storage.bucket(bucket).file(key, generation === '' ? {} : { generation: Number(generation) });
    try {
      return await readStream(
        file.createReadStream({ start: offset, end: offset + length - 1, validation: false, decompress: false }),
        length,
        `bytes ${offset}–${offset + length - 1}`,
      );
    } catch (e) {
      if (statusOf(e) === 404 && generation !== '') {
        // that generation is gone: the object was overwritten (it has another now) or deleted
        const now = await storage
          .bucket(bucket)
          .file(key)
          .getMetadata()
          .then(
            ([m]) => String(m.generation),
            (h: unknown) => (statusOf(h) === 404 ? null : undefined),
          );
        if (now === null) {
          await bucketMissing(bucket, key, e, 'GET');
          return fail('GET', bucket, key, Object.assign(e as object, { deleted: true }), { offset });
        }
        if (now !== undefined && now !== generation) return fail('GET', bucket, key, Object.assign(e as object, { code: 412, found: now }), { offset });
      }
      return fail('GET', bucket, key, attempt > 1 ? Object.assign(e as object, { attempts: attempt }) : e, { offset });
    }
  };

  return {
    endpoint: where,
    credentialSource: requireCredentials,
    async head(bucket, key) {
      await requireCredentials(bucket, key);
      try {
        const [m] = await storage.bucket(bucket).file(key).getMetadata();
        return { key, size: Number(m.size ?? 0), generation: String(m.generation ?? '') };
      } catch (e) {
        if (statusOf(e) === 404) {
          await bucketMissing(bucket, key, e, 'HEAD');
          return undefined;
        }
        return fail('HEAD', bucket, key, e);
      }
    },
    async readRange(bucket, key, offset, length, generation) {
      await requireCredentials(bucket, key);
      // the client retries a request that fails before its answer; a transfer broken mid-body is retried here, with backoff and jitter
      for (let attempt = 1; ; attempt++) {
        try {
          return await readOnce(bucket, key, offset, length, generation, attempt);
        } catch (e) {
          if (!isBrokenTransfer(e) || attempt >= maxAttempts) throw e;
          await new Promise((r) => setTimeout(r, Math.random() * 100 * 2 ** (attempt - 1)));
        }
      }
    },
    list,
  };
}

/** A GET whose answer began and then broke (reset, closed, short): worth another try. */
function isBrokenTransfer(e: unknown): boolean {
  const cause = (e as { cause?: { code?: unknown; name?: string; cause?: { code?: string } } }).cause;
  if (!isDecodeError(e) || cause === undefined) return false;
  const code = typeof cause.code === 'string' ? cause.code : cause.cause?.code;
  return (
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    cause.name === 'ShortRange' ||
    /premature close|socket hang up|aborted/i.test((cause as { message?: string }).message ?? '')
  );
}

/** The body of a range answer, into a buffer of exactly `length` bytes: more, fewer or a failed transfer is an error. */
async function readStream(stream: NodeJS.ReadableStream & { destroy?: () => void }, length: number, range: string): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  let got = 0;
  for await (const chunk of stream as AsyncIterable<Uint8Array>) {
    if (got + chunk.length > length) {
      stream.destroy?.();
      throw Object.assign(new Error(`the store sent more than the ${length} bytes of ${range}`), { name: 'ShortRange' });
    }
    bytes.set(chunk, got);
    got += chunk.length;
  }
  if (got < length) throw Object.assign(new Error(`the answer ended after ${got} of the ${length} bytes of ${range}`), { name: 'ShortRange' });
  return bytes;
}
