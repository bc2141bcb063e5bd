/**
 * The wire format between the app and its local companion (`savepoint-inspector serve`, src/cli/commands/
 * companion-api.ts; the app's side is src/worker/open-companion-input.ts). The companion opens an
 * object-store URL as the CLI does and answers with a manifest of the opened savepoint's files: each file
 * is a number the read endpoint takes, never an object's name, so the app can read nothing the opening
 * did not hand out. Types only: no platform, no I/O.
 */
import type { DecodeErrorJson } from './decode-error';
import type { UsageErrorJson } from './usage-error';

/** The API's paths, below the companion's own origin. All are POST: a browser then always sends `Origin`. */
export const COMPANION_OPEN_PATH = '/api/open';
export const COMPANION_READ_PATH = '/api/read';

/** A file of an opening: the number reads name it by, its display name and size. */
export interface CompanionFile {
  readonly name: string;
  readonly size: number;
}

/** How an absolute handle path resolved on the companion: a file of the opening, or refused (and why). */
export type CompanionAbsolute = { readonly file: number; readonly path: string } | { readonly refused: string; readonly name: string };

export interface CompanionManifest {
  /** the opening's number, for reads */
  readonly open: number;
  /** the input's display name (the URL) */
  readonly name: string;
  /** every file the reads may name, by number */
  readonly sources: readonly CompanionFile[];
  /** `_metadata`'s number */
  readonly metadata: number;
  /** SavepointFiles.files, by number */
  readonly files: readonly number[];
  /** resolveRelative's answers, path → number, for every path the savepoint's handles name */
  readonly relative: readonly (readonly [string, number])[];
  /** resolveAbsolute's answers, for every absolute path the savepoint's handles name */
  readonly absolute: readonly (readonly [string, CompanionAbsolute])[];
  readonly unreadable: readonly (readonly [string, string])[];
  readonly warnings: readonly string[];
  /** what the opening said (endpoint, credential source, the checkpoint chosen), as the CLI writes to stderr */
  readonly notices: readonly string[];
  /** a job's checkpoint directory: the checkpoint read (`chk-N`, the latest completed one) */
  readonly chosen?: string;
  /** how the companion reached the store: its endpoint and the credential source it used (what the CLI names) */
  readonly store?: CompanionStore;
}

export interface CompanionStore {
  /** `AWS S3 (region eu-west-1)`, `http://127.0.0.1:10000/devstoreaccount1 (AZURE_STORAGE_BLOB_ENDPOINT)` */
  readonly endpoint: string;
  /** `environment (AWS_ACCESS_KEY_ID)`, `account key (AZURE_STORAGE_KEY, account acct)` */
  readonly credentials: string;
}

/** A refused or failed request's body (JSON). `error` is the opening's or the read's own error, when there is one. */
export interface CompanionErrorBody {
  readonly message: string;
  readonly error?: DecodeErrorJson | UsageErrorJson;
}
