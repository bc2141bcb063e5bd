/**
 * A user mistake that is not about bytes: nothing is open yet, only a schema was given, a URL that
 * is not http(s), an operator, entry or saved schema the open savepoint does not hold, a command-line
 * option out of its domain. The input was never read, so there is no file offset; the message says
 * what was expected and what was found, as a DecodeError's does. Made with `wrongInput` (the CLI's
 * CliUsageError, for its options and arguments, is a subclass).
 */
export type UsageErrorCode =
  | 'nothing-open' // a call that needs an open savepoint came before any open
  | 'no-input' // nothing was given
  | 'no-savepoint' // a schema was given, but the call needs a savepoint
  | 'no-schema' // a compatibility check without a new schema
  | 'not-found' // an operator, entry or saved schema the open savepoint does not hold
  | 'bad-url' // not an http(s) URL
  | 'bad-path' // a local path that does not exist, cannot be read, or is a folder where a file is expected (or the reverse)
  | 'cannot-write' // an output file or stdout the operating system refused to write (a full disk, no permission, a closed pipe)
  | 'bad-option' // a command-line option or argument
  | 'too-many-files' // a folder with more files than this inspector walks
  | 'shards-mismatch' // key-group shards that do not make one whole (missing or doubled key groups, other savepoints, schemas or tool versions)
  | 'several-savepoints'; // the input holds several savepoints (`_metadata` files) and none was named: `candidates` lists them

export interface UsageErrorJson {
  name: 'UsageError';
  code: UsageErrorCode;
  message: string;
  detail: string;
  /** always empty: a usage error has no place inside the input (kept for one shape with DecodeErrorJson) */
  path: string[];
  /** code `several-savepoints`: the `_metadata` paths inside the input, one of which the user must name */
  candidates?: string[];
}

export class UsageError extends Error {
  override readonly name: string = 'UsageError';
  /** duck-typed like DecodeError's flag, so the error is recognised after a worker-thread boundary */
  readonly isUsageError = true;
  readonly code: UsageErrorCode;
  readonly detail: string;
  /** code `several-savepoints`: the `_metadata` paths inside the input to choose from */
  readonly candidates: readonly string[] | undefined;

  constructor(code: UsageErrorCode, detail: string, candidates?: readonly string[]) {
    super(detail);
    this.code = code;
    this.detail = detail;
    this.candidates = candidates;
  }

  toJSON(): UsageErrorJson {
    return {
      name: 'UsageError',
      code: this.code,
      message: this.message,
      detail: this.detail,
      path: [],
      ...(this.candidates ? { candidates: [...this.candidates] } : {}),
    };
  }
}

/** The one way to say that the user asked for something wrongly (see UsageErrorCode). */
export function wrongInput(code: UsageErrorCode, detail: string, candidates?: readonly string[]): UsageError {
  return new UsageError(code, detail, candidates);
}

export function isUsageError(e: unknown): e is UsageError {
  return typeof e === 'object' && e !== null && (e as { isUsageError?: unknown }).isUsageError === true;
}
