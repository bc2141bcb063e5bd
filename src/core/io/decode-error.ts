/**
 * The core's error for input bytes (one of the two user errors; see classify-error.ts for the
 * family). Every failure to read or decode input bytes is a DecodeError carrying the file it
 * happened in, the absolute byte offset inside that file, a logical path
 * (e.g. `operator 6730ef73… / subtask 2 / keyed state / key group 14`) and a stable code.
 * The message says what was expected and what was found. Mistakes that are not about bytes
 * (nothing open, a URL that is not http(s), a name the savepoint does not hold) are UsageErrors.
 */
export type DecodeErrorCode =
  | 'truncated' // fewer bytes than the structure needs
  | 'bad-magic' // recognised position, wrong magic number
  | 'unsupported-version'
  | 'invalid-value' // a field holds a value outside its domain (negative length, bad flag, …)
  | 'limit-exceeded' // a length/count/depth is over a safety limit
  | 'not-recognised' // the input is not the kind of file that was expected at all
  | 'wrong-file-kind' // the input is a known kind of file, but not the one expected here
  | 'missing-file' // a state handle names a file that is not in the input
  | 'unsupported-format' // recognised, but this reader cannot read it (e.g. RocksDB native SST)
  | 'unknown-serializer'
  | 'corrupt-compression'
  | 'corrupt-archive'
  | 'protobuf' // an error in the serializer's own words (frames, snapshots, descriptors)
  | 'network' // a remote file could not be fetched: the request failed (offline, CORS) or the server's answer cannot be read by range
  | 'cancelled';

export interface DecodeErrorInit {
  code: DecodeErrorCode;
  /** Human text: what was expected and what was found. No location; the location is added below. */
  detail: string;
  file?: string;
  offset?: number;
  path?: readonly string[];
  expected?: string;
  found?: string;
  /** code `missing-file`: the name of the absent file, when the error is located elsewhere (in `_metadata`, where the handle naming it is) */
  missingFile?: string;
  cause?: unknown;
}

export class DecodeError extends Error {
  override readonly name = 'DecodeError';
  readonly isDecodeError = true;
  readonly code: DecodeErrorCode;
  readonly detail: string;
  readonly file: string | undefined;
  readonly offset: number | undefined;
  readonly path: readonly string[];
  readonly expected: string | undefined;
  readonly found: string | undefined;
  readonly missingFile: string | undefined;

  constructor(init: DecodeErrorInit) {
    super(formatDecodeErrorMessage(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.detail = init.detail;
    this.file = init.file;
    this.offset = init.offset;
    this.path = init.path ?? [];
    this.expected = init.expected;
    this.found = init.found;
    this.missingFile = init.missingFile;
  }

  /**
   * A copy with more context: an outer path segment, and file/offset when not yet known. A prefix the path
   * already starts with is not added again (an error made with its full location, e.g. a missing state file
   * named with its handle's operator / subtask / role, passes through code that adds that same location).
   */
  withContext(ctx: { file?: string; offset?: number; pathPrefix?: readonly string[] }): DecodeError {
    const prefix = ctx.pathPrefix ?? [];
    const already = prefix.length > 0 && prefix.length <= this.path.length && prefix.every((segment, i) => this.path[i] === segment);
    return new DecodeError({
      code: this.code,
      detail: this.detail,
      file: this.file ?? ctx.file,
      offset: this.offset ?? ctx.offset,
      path: already ? [...this.path] : [...prefix, ...this.path],
      ...(this.expected === undefined ? {} : { expected: this.expected }),
      ...(this.found === undefined ? {} : { found: this.found }),
      ...(this.missingFile === undefined ? {} : { missingFile: this.missingFile }),
      cause: this.cause,
    });
  }

  toJSON(): DecodeErrorJson {
    return {
      name: 'DecodeError',
      code: this.code,
      message: this.message,
      detail: this.detail,
      ...(this.file === undefined ? {} : { file: this.file }),
      ...(this.offset === undefined ? {} : { offset: this.offset }),
      path: [...this.path],
      ...(this.missingFile === undefined ? {} : { missingFile: this.missingFile }),
    };
  }
}

export interface DecodeErrorJson {
  name: 'DecodeError';
  code: DecodeErrorCode;
  message: string;
  detail: string;
  file?: string;
  offset?: number;
  path: string[];
  /** code `missing-file`: the absent file's name, when the error is located in the file that names it */
  missingFile?: string;
}

export function isDecodeError(e: unknown): e is DecodeError {
  return typeof e === 'object' && e !== null && (e as { isDecodeError?: unknown }).isDecodeError === true;
}

export function formatDecodeErrorMessage(init: DecodeErrorInit): string {
  const where: string[] = [];
  if (init.file !== undefined) where.push(init.file);
  if (init.offset !== undefined) where.push(`offset ${init.offset} (0x${init.offset.toString(16)})`);
  const path = init.path && init.path.length > 0 ? ` [${init.path.join(' / ')}]` : '';
  if (where.length > 0) return `${init.detail} — at ${where.join(', ')}${path}`;
  return path ? `${init.detail} — at${path}` : init.detail;
}

/** Runs fn; a DecodeError thrown inside gets the path segment (and file) prepended. */
export function withDecodePath<T>(segment: string | readonly string[], fn: () => T, file?: string): T {
  try {
    return fn();
  } catch (e) {
    if (isDecodeError(e)) {
      throw e.withContext({ pathPrefix: typeof segment === 'string' ? [segment] : segment, ...(file === undefined ? {} : { file }) });
    }
    throw e;
  }
}

export async function withDecodePathAsync<T>(segment: string | readonly string[], fn: () => Promise<T>, file?: string): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isDecodeError(e)) {
      throw e.withContext({ pathPrefix: typeof segment === 'string' ? [segment] : segment, ...(file === undefined ? {} : { file }) });
    }
    throw e;
  }
}
