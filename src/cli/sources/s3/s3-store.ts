/**
 * The CLI's S3 client: @aws-sdk/client-s3 with the SDK's default credential chain (environment,
 * AWS_PROFILE and the shared config/credentials files with SSO and credential_process, web identity as
 * on EKS, container and instance metadata) — never a flag holding a secret. `AWS_ENDPOINT_URL_S3` (or
 * `AWS_ENDPOINT_URL`) points it at an S3-compatible store (MinIO, Ceph, R2, OSS's S3 API, versitygw);
 * path-style addressing is used when that endpoint's host is an IP address or `localhost`, or when
 * SAVEPOINT_INSPECTOR_S3_PATH_STYLE=true. The SDK's standard retry strategy retries throttling (503
 * SlowDown, 429) and transient failures with exponential backoff and full jitter (AWS_MAX_ATTEMPTS,
 * default 3 attempts); a region redirect is followed. Every failure becomes a one-line DecodeError
 * naming the bucket and key, the credential source and what the store answered (describe-s3-failure.ts).
 *
 * The SDK is imported when the first S3 URL is opened, so other commands never load it.
 */
import type { GetObjectCommandOutput, S3Client } from '@aws-sdk/client-s3';
import { DecodeError, formatS3Url, isDecodeError } from '../../../core/io';
import type { Readable } from 'node:stream';
import type { RangeStream } from '../object-store';
import { BodyChunks } from '../receive-body-chunks';
import { describeS3Failure, type S3Operation } from './describe-s3-failure';

export interface S3ObjectInfo {
  readonly key: string;
  readonly size: number;
  /** the ETag the store gave (quoted, as S3 sends it) */
  readonly etag: string;
}

export interface S3Listing {
  readonly objects: readonly S3ObjectInfo[];
  /** the "folders" right below the prefix (with a delimiter), each ending in '/' */
  readonly prefixes: readonly string[];
}

export interface S3Store {
  /** where requests go, for messages: `AWS S3 (region eu-west-1)` or `http://127.0.0.1:9000 (AWS_ENDPOINT_URL_S3, path-style)` */
  readonly endpoint: string;
  /** how the credentials were found (resolved once, before the first request); none is a DecodeError naming `bucket` and `key` */
  credentialSource(bucket: string, key: string): Promise<string>;
  /** the object's size and ETag, or undefined when there is no such object (the bucket exists) */
  head(bucket: string, key: string): Promise<S3ObjectInfo | undefined>;
  /** exactly [offset, offset + length) of the object as it was when `etag` was read; a changed object is an error */
  readRange(bucket: string, key: string, offset: number, length: number, etag: string): Promise<Uint8Array>;
  /** the same bytes as one streamed GET (a whole-state scan: object-store.ts RangeStream), resumed where a broken transfer broke */
  streamRange(bucket: string, key: string, offset: number, length: number, etag: string): RangeStream;
  /** the objects below `prefix` (all of them, or with `delimiter: '/'` one level), at most `maxObjects` */
  list(bucket: string, prefix: string, options?: { delimiter?: string; maxObjects?: number }): Promise<S3Listing>;
}

export type S3Env = Record<string, string | undefined>;

/** The endpoint the environment names for S3, and whether it needs path-style addressing. */
export function resolveS3Endpoint(env: S3Env): { url?: string; setting?: string; pathStyle: boolean } {
  const setting = env['AWS_ENDPOINT_URL_S3'] ? 'AWS_ENDPOINT_URL_S3' : env['AWS_ENDPOINT_URL'] ? 'AWS_ENDPOINT_URL' : undefined;
  const url = setting === undefined ? undefined : env[setting];
  const forced = /^(1|true|yes)$/i.test(env['SAVEPOINT_INSPECTOR_S3_PATH_STYLE'] ?? '');
  let host: string;
  try {
    host = url === undefined ? '' : new URL(url).hostname;
  } catch {
    host = '';
  }
  const local = host === 'localhost' || /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[');
  return { ...(url === undefined ? {} : { url }), ...(setting === undefined ? {} : { setting }), pathStyle: forced || local };
}

/** Names a credential source from the `$source` marks the SDK's providers set on the credentials they return. */
export function nameCredentialSource(marks: Record<string, unknown> | undefined, env: S3Env): string {
  const has = (prefix: string) => Object.keys(marks ?? {}).some((k) => k.startsWith(prefix));
  const profile = `profile "${env['AWS_PROFILE'] ?? 'default'}"`;
  if (has('CREDENTIALS_ENV_VARS_STS_WEB_ID_TOKEN') || has('CREDENTIALS_STS_ASSUME_ROLE_WEB_ID'))
    return 'web identity token (AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN)';
  if (has('CREDENTIALS_ENV_VARS')) return 'environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)';
  if (has('CREDENTIALS_SSO') || has('CREDENTIALS_PROFILE_SSO')) return `SSO of shared config ${profile}`;
  if (has('CREDENTIALS_PROFILE_PROCESS') || has('CREDENTIALS_PROCESS')) return `credential_process of shared config ${profile}`;
  if (has('CREDENTIALS_PROFILE_LOGIN') || has('CREDENTIALS_LOGIN')) return `aws login of shared config ${profile}`;
  if (has('CREDENTIALS_STS_ASSUME_ROLE')) return `assumed role of shared config ${profile}`;
  if (has('CREDENTIALS_PROFILE')) return `shared config/credentials files, ${profile}`;
  if (has('CREDENTIALS_HTTP')) return 'container credentials endpoint (ECS/EKS)';
  return 'instance metadata (IMDS) or another provider of the default chain';
}

/** Creates the store client for one command; nothing is sent until the first call. */
export async function createS3Store(env: S3Env = process.env): Promise<S3Store> {
  // the SDK warns on stderr that its releases after January 2027 need Node 22; the pinned one runs on Node 20, which package.json allows
  process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
  const sdk = await import('@aws-sdk/client-s3');
  const endpoint = resolveS3Endpoint(env);
  const seconds = Number(env['SAVEPOINT_INSPECTOR_HTTP_TIMEOUT'] ?? 10);
  const timeoutMs = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : 10_000;
  const region = env['AWS_REGION'] ?? env['AWS_DEFAULT_REGION'];
  const makeClient = (fallbackRegion?: string): S3Client =>
    new sdk.S3Client({
      ...(region !== undefined ? { region } : fallbackRegion !== undefined ? { region: fallbackRegion } : {}),
      ...(endpoint.url === undefined ? {} : { endpoint: endpoint.url }),
      forcePathStyle: endpoint.pathStyle,
      followRegionRedirects: true,
      // a byte range is asked for as stored; checksums of whole objects do not apply to ranges
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestChecksumCalculation: 'WHEN_REQUIRED',
      requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs },
    });
  let client = makeClient();
  // no region configured anywhere (an S3-compatible store needs none): the SDK's own default, us-east-1
  try {
    await client.config.region();
  } catch {
    client = makeClient('us-east-1');
  }
  const regionName = await client.config.region().catch(() => 'us-east-1');
  const where =
    endpoint.url === undefined ? `AWS S3 (region ${regionName})` : `${endpoint.url} (${endpoint.setting}${endpoint.pathStyle ? ', path-style' : ''})`;

  let credentials: Promise<string> | undefined;
  const credentialSource = (): Promise<string> => {
    credentials ??= (async () => {
      try {
        const creds = (await client.config.credentials()) as { $source?: Record<string, unknown> };
        return nameCredentialSource(creds.$source, env);
      } catch (e) {
        const said = e instanceof Error ? e.message.split('\n')[0]! : String(e);
        throw Object.assign(new Error(said), { noCredentials: true });
      }
    })();
    return credentials;
  };

  /** the credential source, or the one-line error naming what could not be read for want of credentials */
  const requireCredentials = async (bucket: string, key: string): Promise<string> => {
    try {
      return await credentialSource();
    } catch (e) {
      const url = formatS3Url(bucket, key);
      throw new DecodeError({
        code: 'network',
        file: url,
        detail: `expected AWS credentials to read ${url} (bucket ${bucket}, key ${key === '' ? '(none)' : key}; ${where}), found none in the default chain (environment AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE and ~/.aws/config, SSO, web identity, container or instance metadata): ${e instanceof Error ? e.message : String(e)}`,
      });
    }
  };

  const fail = async (op: S3Operation, bucket: string, key: string, e: unknown, extra: { offset?: number } = {}): Promise<never> => {
    throw describeS3Failure({ op, bucket, key, error: e, credentialSource: await credentialSource(), endpoint: where, ...extra });
  };

  const list: S3Store['list'] = async (bucket, prefix, options = {}) => {
    await requireCredentials(bucket, prefix);
    const objects: S3ObjectInfo[] = [];
    const prefixes: string[] = [];
    const max = options.maxObjects ?? Number.POSITIVE_INFINITY;
    let token: string | undefined;
    do {
      let page;
      try {
        page = await client.send(
          new sdk.ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix,
            ...(options.delimiter ? { Delimiter: options.delimiter } : {}),
            ...(token ? { ContinuationToken: token } : {}),
            MaxKeys: Math.min(1000, Number.isFinite(max) ? Math.max(1, max - objects.length) : 1000),
          }),
        );
      } catch (e) {
        return fail('LIST', bucket, prefix, e);
      }
      for (const o of page.Contents ?? []) {
        if (o.Key === undefined) continue;
        objects.push({ key: o.Key, size: o.Size ?? 0, etag: o.ETag ?? '' });
      }
      for (const p of page.CommonPrefixes ?? []) if (p.Prefix !== undefined) prefixes.push(p.Prefix);
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined && objects.length < max);
    return { objects, prefixes };
  };

  const maxAttempts = Math.max(1, Math.min(10, Number(env['AWS_MAX_ATTEMPTS'] ?? 3) || 3));

  /** Sends one ranged GET and checks its ETag; a failure is the one-line DecodeError. */
  const sendGet = async (bucket: string, key: string, offset: number, length: number, etag: string): Promise<GetObjectCommandOutput> => {
    const range = `bytes=${offset}-${offset + length - 1}`;
    let out: GetObjectCommandOutput;
    try {
      out = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key, Range: range, ...(etag === '' ? {} : { IfMatch: etag }) }));
    } catch (e) {
      return fail('GET', bucket, key, e, { offset });
    }
    if (etag !== '' && out.ETag !== undefined && out.ETag !== etag) {
      await destroyBody(out);
      return fail(
        'GET',
        bucket,
        key,
        Object.assign(new Error('changed'), { name: 'PreconditionFailed', $metadata: { httpStatusCode: 412 }, found: out.ETag }),
        { offset },
      );
    }
    return out;
  };

  /** A transfer that broke after its answer began, as the one-line DecodeError (its cause the stream's error, for isBrokenTransfer). */
  const failTransfer = (bucket: string, key: string, offset: number, e: unknown, attempt: number): Promise<never> =>
    fail('GET', bucket, key, attempt > 1 ? Object.assign(e as object, { $metadata: { attempts: attempt } }) : e, { offset });

  /** One ranged GET; a failure is the one-line DecodeError (its cause the SDK's or the stream's error, for isBrokenTransfer). */
  const readOnce = async (bucket: string, key: string, offset: number, length: number, etag: string, attempt = 1): Promise<Uint8Array> => {
    const out = await sendGet(bucket, key, offset, length, etag);
    try {
      return await readBody(out, length, `bytes ${offset}–${offset + length - 1}`);
    } catch (e) {
      return failTransfer(bucket, key, offset, e, attempt);
    }
  };

  /**
   * One streamed GET of [offset, offset + length): its body's chunks as they arrive (receive-body-chunks.ts: from
   * the body's `data` events into a bounded queue, handed on by `take` without a promise per chunk). A transfer
   * that breaks is asked for again from the first byte not yet received, after the same backoff as readRange's,
   * until the attempts (AWS_MAX_ATTEMPTS, counted over the whole stream) are used up; the bytes received before the
   * break are handed on first.
   */
  const streamRange = (bucket: string, key: string, offset: number, length: number, etag: string): RangeStream => {
    const end = offset + length;
    /** the first byte not yet handed on */
    let at = offset;
    let attempt = 1;
    let out: GetObjectCommandOutput | undefined;
    let chunks: BodyChunks | undefined;
    let held = true;
    let closed = false;
    /** a failure `take` found, for `next` to report (and retry) */
    let broken: unknown;
    const socketOf = (o: GetObjectCommandOutput | undefined) =>
      (o?.Body as { socket?: { ref(): void; unref(): void } | null } | undefined)?.socket ?? undefined;
    const drop = () => {
      chunks?.destroy();
      if (out !== undefined) void destroyBody(out);
      out = undefined;
      chunks = undefined;
    };
    /** the next chunk received, checked against the range asked for; undefined when none is ready */
    const take = (): Uint8Array | undefined => {
      const chunk = chunks?.take();
      if (chunk === undefined) return undefined;
      if (at + chunk.length > end) {
        drop();
        throw Object.assign(new Error(`the store sent more than the ${length} bytes of bytes ${offset}–${end - 1}`), { name: 'ShortRange' });
      }
      at += chunk.length;
      // the answer's last byte: its end comes by itself (the body flows), and its connection goes back to the client's pool
      if (at === end) {
        out = undefined;
        chunks = undefined;
      }
      return chunk;
    };
    return {
      take() {
        if (closed) return undefined;
        try {
          return take();
        } catch (e) {
          broken = e; // (next reports it, described)
          return undefined;
        }
      },
      async next() {
        for (;;) {
          if (closed || at >= end) return undefined;
          try {
            if (broken !== undefined) {
              const e = broken;
              broken = undefined;
              throw e;
            }
            if (chunks === undefined) {
              await requireCredentials(bucket, key);
              const opened = await sendGet(bucket, key, at, end - at, etag);
              if (closed) {
                void destroyBody(opened);
                return undefined;
              }
              out = opened;
              const body = out.Body as Readable | undefined;
              if (body === undefined) throw Object.assign(new Error(`no body for bytes ${at}–${end - 1}`), { name: 'ShortRange' });
              if (out.ContentLength !== undefined && out.ContentLength !== end - at)
                throw Object.assign(new Error(`the store answered ${out.ContentLength} bytes for bytes ${at}–${end - 1} (${end - at} asked)`), {
                  name: 'ShortRange',
                });
              if (!held) socketOf(out)?.unref();
              chunks = new BodyChunks(body, end - at);
            }
            const ready = take();
            if (ready !== undefined) return ready;
            const receiving = chunks!;
            if (receiving.failure !== undefined) throw receiving.failure;
            if (receiving.ended)
              throw Object.assign(new Error(`the answer ended after ${at - offset} of the ${length} bytes of bytes ${offset}–${end - 1}`), {
                name: 'ShortRange',
              });
            await receiving.wait();
          } catch (e) {
            drop();
            const failure = isDecodeError(e) ? e : await failTransfer(bucket, key, at, e, attempt).catch((described: unknown) => described);
            if (!isBrokenTransfer(failure) || attempt >= maxAttempts) throw failure;
            attempt++;
            await sleep(backoffMs(attempt - 1));
          }
        }
      },
      hold(active) {
        held = active;
        const socket = socketOf(out);
        if (active) socket?.ref();
        else socket?.unref();
      },
      close() {
        closed = true;
        drop();
      },
    };
  };

  return {
    endpoint: where,
    credentialSource: requireCredentials,
    async head(bucket, key) {
      await requireCredentials(bucket, key);
      try {
        const out = await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { key, size: out.ContentLength ?? 0, etag: out.ETag ?? '' };
      } catch (e) {
        const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        const name = (e as { name?: string }).name;
        // HEAD has no body: a 404 is a missing object or a missing bucket; ask the bucket to tell them apart
        if (status === 404 || name === 'NotFound' || name === 'NoSuchKey') {
          await list(bucket, key, { maxObjects: 1 });
          return undefined;
        }
        // nor the store's error code (403: a bad signature or a denied read?): a 1-byte GET tells it
        if (status !== undefined && status >= 400 && status < 500 && !isCoded(e)) {
          try {
            await readOnce(bucket, key, 0, 1, '');
          } catch (coded) {
            if (isDecodeError(coded)) throw coded;
          }
        }
        return fail('HEAD', bucket, key, e);
      }
    },
    async readRange(bucket, key, offset, length, etag) {
      await requireCredentials(bucket, key);
      // the SDK retries a request that fails before its answer; a transfer broken mid-body is retried here, with the same backoff
      for (let attempt = 1; ; attempt++) {
        try {
          return await readOnce(bucket, key, offset, length, etag, attempt);
        } catch (e) {
          if (!isBrokenTransfer(e) || attempt >= maxAttempts) throw e;
          await sleep(backoffMs(attempt));
        }
      }
    },
    streamRange,
    list,
  };
}

/** An SDK error that carries the store's own error code (a body was parsed), not just a status. */
function isCoded(e: unknown): boolean {
  const name = (e as { name?: string; Code?: string }).Code ?? (e as { name?: string }).name;
  return name !== undefined && name !== 'Unknown' && name !== 'UnknownError' && !/^\d+$/.test(name) && name !== 'Forbidden' && name !== 'BadRequest';
}

/** A GET whose answer began and then broke (reset, closed, short): worth another try. */
function isBrokenTransfer(e: unknown): boolean {
  const cause = (e as { cause?: { code?: string; name?: string; cause?: { code?: string } } }).cause;
  if (!isDecodeError(e) || cause === undefined) return false;
  const code = cause.code ?? cause.cause?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE' || cause.name === 'ShortRange';
}

/** Exponential backoff with full jitter (as the SDK's standard strategy): up to 100 ms · 2^(attempt−1). */
function backoffMs(attempt: number): number {
  return Math.random() * 100 * 2 ** (attempt - 1);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function destroyBody(out: GetObjectCommandOutput): Promise<void> {
  const body = out.Body as { destroy?: () => void } | undefined;
  body?.destroy?.();
}

/** The body of a range answer, into a buffer of exactly `length` bytes: more, fewer or a failed transfer is an error. */
async function readBody(out: GetObjectCommandOutput, length: number, range: string): Promise<Uint8Array> {
  const body = out.Body as (AsyncIterable<Uint8Array> & { destroy?: () => void }) | undefined;
  if (out.ContentLength !== undefined && out.ContentLength !== length) {
    body?.destroy?.();
    throw Object.assign(new Error(`the store answered ${out.ContentLength} bytes for ${range} (${length} asked)`), { name: 'ShortRange' });
  }
  const bytes = new Uint8Array(length);
  let got = 0;
  if (body === undefined) throw Object.assign(new Error(`no body for ${range}`), { name: 'ShortRange' });
  for await (const chunk of body) {
    if (got + chunk.length > length) {
      body.destroy?.();
      throw Object.assign(new Error(`the store sent more than the ${length} bytes of ${range}`), { name: 'ShortRange' });
    }
    bytes.set(chunk, got);
    got += chunk.length;
  }
  if (got < length) throw Object.assign(new Error(`the answer ended after ${got} of the ${length} bytes of ${range}`), { name: 'ShortRange' });
  return bytes;
}
