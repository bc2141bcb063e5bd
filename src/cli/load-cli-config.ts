/**
 * The repository's config file, `savepoint-inspector.yaml`, found upward from the working directory (as
 * `buf.yaml` is) or named with `--config FILE`: what a repository's `check` always means — the target line,
 * the new reader settings, the new root message per state, the warning rules it ignores — so that its CI line
 * names only the savepoint and the new schema. Flags override it, key by key (`--root OP/STATE=NAME` one
 * state's root). Parsed with the `yaml` package; a file that is not YAML, or a key or value this does not
 * know, is a `bad-option` UsageError located `file:line:column` (exit 2).
 *
 * ```yaml
 * version: 1
 * check:
 *   target: 1.x
 *   newSettings: { maxMessageSize: 67108864, recursionLimit: 100, deterministicSerialization: false, largePayloadAliasing: true }
 *   root: com.example.Event              # every Protobuf state
 *   roots: { orders/last-order: com.example.Order }
 *   ignore: [ALIASING_RETENTION]         # warning rules only (docs/rules.md)
 * ```
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { getRule, type LibraryLine } from '../core/compat';
import { wrongInput } from '../core/io';

export const CONFIG_FILE_NAME = 'savepoint-inspector.yaml';

export interface CheckConfig {
  target?: LibraryLine;
  newSettings: { maxMessageSize?: number; recursionLimit?: number; deterministicSerialization?: boolean; largePayloadAliasing?: boolean };
  root?: string;
  roots: Record<string, string>;
  ignore: string[];
}

export interface CliConfig {
  /** the file read (absolute) */
  file: string;
  check: CheckConfig;
}

/** The config file nearest `from` upward: `savepoint-inspector.yaml` in it or a folder above; undefined when none. */
export async function findConfigFile(from: string): Promise<string | undefined> {
  let dir = path.resolve(from);
  for (;;) {
    const candidate = path.join(dir, CONFIG_FILE_NAME);
    if ((await stat(candidate).catch(() => undefined))?.isFile() === true) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Reads and checks the config file `file`. */
export async function loadCliConfig(file: string): Promise<CliConfig> {
  const text = await readFile(file, 'utf8');
  return parseCliConfig(text, path.resolve(file));
}

const SETTINGS = { maxMessageSize: 'int', recursionLimit: 'int', deterministicSerialization: 'bool', largePayloadAliasing: 'bool' } as const;

export function parseCliConfig(text: string, file: string): CliConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const fail = (at: number | undefined, detail: string): never => {
    const pos = at === undefined ? undefined : lines.linePos(at);
    throw wrongInput('bad-option', `${file}${pos ? `:${pos.line}:${pos.col}` : ''}: ${detail}`);
  };
  const first = doc.errors[0];
  if (first !== undefined) fail(first.pos[0], `not valid YAML: ${first.message.split('\n')[0]!}`);
  const check: CheckConfig = { newSettings: {}, roots: {}, ignore: [] };
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) return { file, check };
  const at = (node: Node | null | undefined) => node?.range?.[0];
  const mapOf = (node: unknown, where: string) => {
    if (!isMap(node)) fail(at(node as Node), `expected ${where} to be a mapping (key: value)`);
    return node as Extract<Node, { items: unknown }> & ReturnType<Document['createNode']>;
  };
  const top = mapOf(root, 'the file');
  for (const pair of (top as unknown as { items: { key: Node; value: Node | null }[] }).items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (key === 'version') {
      if (!isScalar(pair.value) || pair.value.value !== 1) fail(at(pair.value ?? pair.key), 'expected version: 1');
    } else if (key === 'check') {
      readCheck(pair.value, check, fail, at);
    } else {
      fail(at(pair.key), `unknown key '${key}': expected version or check`);
    }
  }
  return { file, check };
}

type Fail = (at: number | undefined, detail: string) => never;
type Pair = { key: Node; value: Node | null };

function readCheck(node: Node | null, check: CheckConfig, fail: Fail, at: (n: Node | null | undefined) => number | undefined): void {
  if (!isMap(node)) fail(at(node), 'expected check to be a mapping (target, newSettings, root, roots, ignore)');
  for (const pair of (node as unknown as { items: Pair[] }).items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const value = pair.value;
    const scalar = (what: string): unknown => {
      if (!isScalar(value)) fail(at(value ?? pair.key), `expected ${what} for ${key}`);
      return (value as { value: unknown }).value;
    };
    if (key === 'target') {
      const v = String(scalar('0.x or 1.x'));
      if (v !== '0.x' && v !== '1.x') fail(at(value), `expected target 0.x or 1.x, found ${v}`);
      check.target = v as LibraryLine;
    } else if (key === 'newSettings') {
      if (!isMap(value)) fail(at(value ?? pair.key), 'expected newSettings to be a mapping');
      for (const s of (value as unknown as { items: Pair[] }).items) {
        const name = isScalar(s.key) ? String(s.key.value) : '';
        const kind = SETTINGS[name as keyof typeof SETTINGS];
        if (kind === undefined) fail(at(s.key), `unknown setting '${name}': expected ${Object.keys(SETTINGS).join(', ')}`);
        const v = isScalar(s.value) ? s.value.value : undefined;
        if (kind === 'int' && !(typeof v === 'number' && Number.isSafeInteger(v) && v > 0 && v <= 2_147_483_647))
          fail(at(s.value ?? s.key), `expected ${name} to be a positive 32-bit integer, found ${String(v)}`);
        if (kind === 'bool' && typeof v !== 'boolean') fail(at(s.value ?? s.key), `expected ${name} to be true or false, found ${String(v)}`);
        (check.newSettings as Record<string, unknown>)[name] = v;
      }
    } else if (key === 'root') {
      const v = scalar('a message name');
      if (typeof v !== 'string' || v === '') fail(at(value), 'expected root to be a message name');
      check.root = v as string;
    } else if (key === 'roots') {
      if (!isMap(value)) fail(at(value ?? pair.key), 'expected roots to be a mapping of OPERATOR/STATE: MESSAGE');
      for (const r of (value as unknown as { items: Pair[] }).items) {
        const state = isScalar(r.key) ? String(r.key.value) : '';
        if (!state.includes('/')) fail(at(r.key), `expected a key OPERATOR/STATE (operator id or uid / state name), found '${state}'`);
        const name = isScalar(r.value) ? r.value.value : undefined;
        if (typeof name !== 'string' || name === '') fail(at(r.value ?? r.key), `expected the root message name of ${state}`);
        check.roots[state] = name as string;
      }
    } else if (key === 'ignore') {
      if (!isSeq(value)) fail(at(value ?? pair.key), 'expected ignore to be a list of rule ids');
      for (const item of (value as unknown as { items: Node[] }).items) {
        const id = isScalar(item) ? String(item.value) : '';
        let outcome: string | undefined;
        try {
          outcome = getRule(id as Parameters<typeof getRule>[0]).outcome;
        } catch {
          fail(at(item), `unknown rule id '${id}' (docs/rules.md)`);
        }
        if (outcome !== 'warning') fail(at(item), `${id} decides a state's verdict (${outcome}): only warning rules can be ignored (docs/rules.md)`);
        check.ignore.push(id);
      }
    } else {
      fail(at(pair.key), `unknown key check.${key}: expected target, newSettings, root, roots or ignore`);
    }
  }
}

/**
 * The config a command runs with: `--config FILE`, else the file found upward from the working directory,
 * none with `--no-config`. Says on stderr which file it read, unless `--quiet`.
 */
export async function resolveCliConfig(
  values: Record<string, unknown>,
  io: { cwd?: string; stderr(text: string): void },
  command: string,
): Promise<CliConfig | undefined> {
  if (values['no-config'] === true) {
    if (values['config'] !== undefined) throw wrongInput('bad-option', 'give either --config FILE or --no-config, not both');
    return undefined;
  }
  const named = values['config'];
  if (named !== undefined && (typeof named !== 'string' || named === '')) throw wrongInput('bad-option', '--config expects a file');
  const file = typeof named === 'string' ? path.resolve(io.cwd ?? process.cwd(), named) : await findConfigFile(io.cwd ?? process.cwd());
  if (file === undefined) return undefined;
  const config = await loadCliConfig(file);
  if (values['quiet'] !== true) io.stderr(`savepoint-inspector ${command}: config ${file}\n`);
  return config;
}

/** The config options of the commands that read it. */
export const CONFIG_OPTIONS = { config: { type: 'string' }, 'no-config': { type: 'boolean' } } as const;

export const CONFIG_USAGE = [
  `  --config FILE            the config file (default: ${CONFIG_FILE_NAME} in the working directory or a folder above)`,
  '  --no-config              read no config file',
];
