/**
 * Finds the committed fixture savepoints (fixtures/savepoints/flink-<line>/<backend>/<case>/manifest.json, and the
 * newer sides of the `diff` pairs under fixtures/diff-pairs) and
 * types their manifests, as written by fixtures/flink-writer (Manifest.java, ExpectedState.java).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const FIXTURES_ROOT = resolve(process.cwd(), 'fixtures');
export const SAVEPOINTS_ROOT = join(FIXTURES_ROOT, 'savepoints');
export const DIFF_PAIRS_ROOT = join(FIXTURES_ROOT, 'diff-pairs');

export interface UnknownFieldJson {
  number: number;
  wireType: number;
  varint?: string;
  fixed32?: string;
  fixed64?: string;
  hex?: string;
}
export interface ValueJson {
  messageType: string;
  json: unknown;
  unknownFields: UnknownFieldJson[];
  payloadSize: number;
  payloadHex?: string;
  payloadSha256: string;
}
export interface KeyedEntryJson {
  key: number | string;
  keyGroup: number;
  subtask: number;
  userKey?: string;
  value?: string;
  values?: string[];
}
export interface PartitionJson {
  subtask: number;
  values?: string[];
  entries?: { userKey: string; value: string }[];
}
export interface StateJson {
  name: string;
  kind: 'value' | 'map' | 'list' | 'operator-list' | 'operator-union-list' | 'broadcast-map';
  ttl?: boolean;
  mode?: string;
  valueSerializer: {
    snapshotClass: string;
    javaClass: string;
    messageType: string;
    settings: { deterministicSerialization: boolean; maxMessageSize: number; recursionLimit: number };
  };
  entries?: KeyedEntryJson[];
  partitions?: PartitionJson[];
}
export interface OperatorJson {
  uid: string;
  parallelism: number;
  maxParallelism?: number;
  keyGroupPrefixBytes?: number;
  keyType?: string;
  states: StateJson[];
}
export interface FixtureManifest {
  manifestVersion: number;
  case: string;
  versions: { flink: string; java: string; protobufJava: string };
  serializer: { snapshotClass: string; resolvedFromMavenCentral: boolean; formatVersion: string };
  settings: { stateBackend: 'hashmap' | 'rocksdb'; savepointFormat: 'CANONICAL' | 'NATIVE'; snapshotCompression: boolean; parallelism: number };
  files: { savepointFolder: string; savepointZip?: string; savepointFiles: string[] };
  readableByInspector: boolean;
  operators: OperatorJson[];
  values: Record<string, ValueJson>;
}
export interface FixtureCase {
  label: string;
  dir: string;
  manifest: FixtureManifest;
}

export function listFixtureCases(): FixtureCase[] {
  return listCases(SAVEPOINTS_ROOT, '');
}

/** The newer sides of the `diff` golden pairs (fixtures/diff-pairs/flink-<line>/<backend>/<case>/manifest.json), manifests of the same shape. */
export function listDiffPairCases(): FixtureCase[] {
  return listCases(DIFF_PAIRS_ROOT, 'diff-pairs/');
}

function listCases(root: string, labelPrefix: string): FixtureCase[] {
  if (!existsSync(root)) return [];
  const cases: FixtureCase[] = [];
  for (const line of readdirSync(root).sort()) {
    for (const backend of readdirSync(join(root, line)).sort()) {
      for (const name of readdirSync(join(root, line, backend)).sort()) {
        const dir = join(root, line, backend, name);
        const file = join(dir, 'manifest.json');
        if (!existsSync(file)) continue;
        cases.push({ label: `${labelPrefix}${line}/${backend}/${name}`, dir, manifest: JSON.parse(readFileSync(file, 'utf8')) as FixtureManifest });
      }
    }
  }
  return cases;
}
