/**
 * `dump <savepoint> --operator <id|uid> --state <name> [--limit N] [--format text|json] [--full-values] [--quiet]`: the entries
 * of one state with key, key group, namespace, user key and decoded value; Protobuf values are decoded
 * with the descriptors of their own snapshot and listed with their unknown fields.
 *
 * Output is streamed entry by entry (one decoded value held at a time), and what one value prints is
 * capped — its rendering at MAX_VALUE_CHARS characters, its unknown fields at MAX_UNKNOWN_FIELDS per
 * message and MAX_UNKNOWN_FIELD_BYTES bytes of hex each — with a note where it cut; `--full-values`
 * lifts the caps.
 */
import { findOperator, openSavepointSession, scanState, type DecodedValue, type SavepointSession, type ScanPart, type StateEntry } from '../../core/flink';
import { wrongInput, formatHex } from '../../core/io';
import {
  formatMessageJsonText,
  listProtobufValueDetails,
  MAX_DESCRIPTOR_BYTES,
  stringifyWithMessageViews,
  type DecodedProtobufValue,
} from '../../core/protobuf';
import { fitsValueJsonLimit, NO_VALUE_VIEW_CAPS, VALUE_VIEW_CAPS, type ValueViewCaps } from '../../core/report';
import { CliUsageError, EXIT_OK, type CliCommand } from '../cli-types';
import { JSON_SCHEMA_VERSION, METADATA_OPTION, pathMapUsage, parseFormat, savepointInputOptions, takeOnePositional, TEXT_OR_JSON } from '../parse-cli-values';
import { openNodeInput } from '../sources';
import { checkShardRange, parseKeyGroupRange, parseOperatorStateFlag } from '../scan';
import { waitForDrain } from '../write-to-writable';
import { createSavepointRegistry } from '../../core/compat';
import { readUserSchema, USER_SCHEMA_OPTIONS, USER_SCHEMA_USAGE } from './read-user-schema';

const WIRE_TYPES = ['varint', 'fixed64', 'length-delimited', 'group', 'end-group', 'fixed32'];

export const dumpCommand: CliCommand = {
  name: 'dump',
  summary: 'print the entries of one state: keys, decoded values, Protobuf unknown fields',
  usage: [
    'Usage: savepoint-inspector dump <savepoint folder | _metadata | .zip/.tar/.tar.gz | http(s), s3://, abfss:// / wasbs:// or gs:// URL> --operator <id|uid> --state <name> [options]',
    '',
    'Options:',
    '  --operator <id|uid>  the operator: 32-hex operator id or its uid',
    '  --state <name>       the state name',
    '  --limit <N>          print at most N entries (default: all)',
    '  --key-groups A-B     a key-group shard (inclusive): only these key groups of keyed state',
    '  --operator-state yes|no  with --key-groups: print operator state in this shard (default: yes for key group 0)',
    '  --format F           text (default) or json: one JSON document {schemaVersion, operator, state, entries: [...]}',
    ...USER_SCHEMA_USAGE,
    '  --full-values        print every value whole (by default one value prints at most 1 MiB,',
    '                       1,000 unknown fields per message and 256 bytes of each)',
    '  --metadata PATH      which savepoint of an input holding several (its _metadata path in it, or its folder)',
    ...pathMapUsage(23),
    '  -h, --help           show this help',
  ].join('\n'),
  formats: TEXT_OR_JSON,
  inputs: { positionals: true, options: ['descriptors', 'job-jar', 'with'], limits: { descriptors: MAX_DESCRIPTOR_BYTES } },
  quiet: "text: the state's line and the count of entries, not the entries",
  options: {
    ...METADATA_OPTION,
    operator: { type: 'string' },
    state: { type: 'string' },
    limit: { type: 'string' },
    format: { type: 'string' },
    'key-groups': { type: 'string' },
    'operator-state': { type: 'string' },
    ...USER_SCHEMA_OPTIONS,
    'full-values': { type: 'boolean' },
  },
  async run({ values, positionals }, io) {
    const savepoint = takeOnePositional(positionals, 'expected a savepoint to dump');
    const operator = values['operator'];
    const state = values['state'];
    if (typeof operator !== 'string' || operator === '') throw new CliUsageError('expected --operator <id|uid>');
    if (typeof state !== 'string' || state === '') throw new CliUsageError('expected --state <name>');
    const limitText = values['limit'];
    let limit: number | undefined;
    if (limitText !== undefined) {
      if (typeof limitText !== 'string' || !/^\d+$/.test(limitText))
        throw new CliUsageError(`expected --limit to be a non-negative integer, found ${String(limitText)}`);
      limit = Number(limitText);
    }
    const format = parseFormat(values['format'], TEXT_OR_JSON);
    const keyGroupRange = parseKeyGroupRange(values['key-groups']);
    const operatorState = parseOperatorStateFlag(values['operator-state']);
    if (operatorState !== undefined && keyGroupRange === undefined) throw new CliUsageError('--operator-state needs --key-groups A-B');
    const userSchema = await readUserSchema(values);
    const files = await openNodeInput(savepoint, savepointInputOptions(values, io));
    const caps = values['full-values'] === true ? NO_VALUE_VIEW_CAPS : VALUE_VIEW_CAPS;
    // entries are written in batches of about OUTPUT_BATCH characters: one write per entry cost a system call each
    const output = createBatchedWriter(io.stdout);
    const quiet = values['quiet'] === true && format === 'text';
    const printer = format === 'json' ? createJsonPrinter(output.write, operator, state) : createTextPrinter(output.write, operator, state, quiet);
    // decoded values carry the Protobuf decoder's details (unknown fields with their bytes); each is printed and dropped
    const visit = quiet
      ? () => printer.entry(undefined)
      : (entry: StateEntry) => printer.entry(toDumpEntry(entry, listProtobufValueDetails(entry.value), caps));
    // `_metadata` read once: the scan and the states listed for a wrong name come from one session
    const session = await openSavepointSession(files, createSavepointRegistry({ schema: userSchema }));
    const { opened, registry } = session;
    if (keyGroupRange !== undefined) checkShardRange(opened, keyGroupRange);
    let named = false;
    // entries that are not the whole state (a changelog's changes after its materialized part) are said so
    const incomplete = new Set<string>();
    const part = (p: ScanPart) => {
      if (!named) printer.start();
      named = true;
      if (p.incomplete !== undefined) incomplete.add(p.incomplete);
    };
    // back pressure: a pipe to a slower reader (`dump … | less`) queues what is written in memory; the scan waits
    // for it to drain after each read, as `export` does, instead of holding the whole dump
    const stream = io.stdoutStream;
    const drain = async () => {
      if (stream !== undefined) await waitForDrain(stream);
    };
    try {
      await scanState(
        opened,
        registry,
        {
          operatorId: operator,
          states: state,
          ...(limit === undefined ? {} : { limit }),
          ...(keyGroupRange === undefined ? {} : { keyGroupRange, ...(operatorState === undefined ? {} : { operatorState }) }),
        },
        { part, entry: visit, drain },
        { values: { mode: 'decode' }, headers: session.headers },
      );
      // a state no header of the operator names is a wrong name, not an empty state
      if (!named) {
        await requireNamedState(session, operator, state);
        printer.start();
      }
      printer.end();
    } finally {
      // what was printed before a failure is written before its error
      output.flush();
    }
    for (const why of incomplete) io.stderr(`savepoint-inspector dump: warning: not the whole state: ${why}\n`);
    return EXIT_OK;
  },
};

/** Text handed to stdout at once, at least (a longer entry goes out whole). */
const OUTPUT_BATCH = 1 << 16;

/**
 * Collects text and hands it to `write` in pieces of about OUTPUT_BATCH characters, appended with `+=`:
 * the engine keeps a rope and copies it once, when the piece is written (a join was one more copy).
 */
function createBatchedWriter(write: (text: string) => void): { write: (text: string) => void; flush: () => void } {
  let pending = '';
  const flush = () => {
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  return {
    write(text) {
      pending += text;
      if (pending.length >= OUTPUT_BATCH) flush();
    },
    flush,
  };
}

/** Throws a not-found UsageError listing the operator's states when none of its headers names `state`. */
async function requireNamedState(session: SavepointSession, operator: string, state: string): Promise<void> {
  const op = findOperator(session.opened, operator)!;
  const inspection = await session.inspect();
  const states = [...new Set(inspection.operators.find((o) => o.id === op.id)?.states.map((s) => s.name) ?? [])].sort();
  if (states.includes(state)) return;
  throw wrongInput(
    'not-found',
    `expected a state of operator ${op.id}, found ${JSON.stringify(state)} (its states: ${states.length === 0 ? 'none' : states.map((s) => JSON.stringify(s)).join(', ')})`,
  );
}

export interface DumpUnknownField {
  path: string;
  number: number;
  wireType: string;
  offset: number;
  length: number;
  /** the field's bytes in hex: the first MAX_UNKNOWN_FIELD_BYTES of them unless --full-values (then `hexTruncated`) */
  hex: string;
  hexTruncated?: true;
}

/** What one value prints at most, unless --full-values: the bounds the app's entry detail pane uses too */
export const MAX_VALUE_CHARS = VALUE_VIEW_CAPS.valueChars;
export const MAX_UNKNOWN_FIELDS = VALUE_VIEW_CAPS.unknownFields;
export const MAX_UNKNOWN_FIELD_BYTES = VALUE_VIEW_CAPS.unknownFieldBytes;

export interface DumpEntry {
  subtask: number;
  keyGroup: number;
  key?: DecodedValue;
  namespace?: DecodedValue;
  userKey?: DecodedValue;
  /** `omitted` replaces a value whose rendering is longer than MAX_VALUE_CHARS (unless --full-values) */
  value: DecodedValue | null | { kind: 'omitted'; reason: string };
  file: string;
  valueOffset: number;
  valueLength: number;
  /** per Protobuf message in the value (one for ValueState/MapState, one per element for lists) */
  protobuf: {
    typeName: string;
    /** the snapshot was read by structure: schema and framing inferred, not exact */ inferred?: string;
    payloadSize: number;
    depth: number;
    unknownFields: DumpUnknownField[];
    /** unknown fields past MAX_UNKNOWN_FIELDS, not listed */ unknownFieldsOmitted?: number;
  }[];
}

function toDumpEntry(e: StateEntry, values: DecodedProtobufValue[], caps: ValueViewCaps): DumpEntry {
  return {
    subtask: e.subtask,
    keyGroup: e.keyGroup,
    ...(e.key === undefined ? {} : { key: e.key }),
    ...(e.namespace === undefined ? {} : { namespace: e.namespace }),
    ...(e.userKey === undefined ? {} : { userKey: e.userKey }),
    value: capValue(e.value, caps),
    file: e.file,
    valueOffset: e.valueRange.offset,
    valueLength: e.valueRange.length,
    protobuf: values.map(({ detail: d, inferred }) => ({
      typeName: d.typeName,
      ...(inferred ? { inferred } : {}),
      payloadSize: d.payloadSize,
      depth: d.depth,
      unknownFields: d.unknownFields.slice(0, caps.unknownFields).map((u) => ({
        path: u.path,
        number: u.number,
        wireType: WIRE_TYPES[u.wireType] ?? String(u.wireType),
        offset: u.offset,
        length: u.length,
        hex: formatHex(u.raw.length > caps.unknownFieldBytes ? u.raw.subarray(0, caps.unknownFieldBytes) : u.raw),
        ...(u.raw.length > caps.unknownFieldBytes ? { hexTruncated: true as const } : {}),
      })),
      ...(d.unknownFields.length > caps.unknownFields ? { unknownFieldsOmitted: d.unknownFields.length - caps.unknownFields } : {}),
    })),
  };
}

/** The value, or a note in its place when its rendering is longer than the cap. */
function capValue(v: DecodedValue | null, caps: ValueViewCaps): DumpEntry['value'] {
  if (v === null || fitsValueJsonLimit(v, caps.valueChars)) return v;
  return { kind: 'omitted', reason: `the value's JSON is longer than ${caps.valueChars} characters; --full-values prints it` };
}

interface DumpPrinter {
  /** once the state is known to exist, before any entry */
  start(): void;
  /** undefined: an entry counted, not printed (--quiet) */
  entry(e: DumpEntry | undefined): void;
  end(): void;
}

/**
 * The JSON document `{operator, state, entries}` exactly as JSON.stringify(…, null, 2) would print it
 * whole, written entry by entry.
 */
function createJsonPrinter(write: (text: string) => void, operator: string, state: string): DumpPrinter {
  let count = 0;
  return {
    start() {
      write(`{\n  "schemaVersion": ${JSON_SCHEMA_VERSION},\n  "operator": ${JSON.stringify(operator)},\n  "state": ${JSON.stringify(state)},\n  "entries": [`);
    },
    entry(e) {
      if (e === undefined) return;
      // a message's JSON view is written from the decoded message, not built as an object tree and stringified
      const text = stringifyWithMessageViews(e, '    ');
      write(`${count++ === 0 ? '\n' : ',\n'}    ${text}`);
    },
    end() {
      write(count === 0 ? ']\n}\n' : '\n  ]\n}\n');
    },
  };
}

/** The text form, entry by entry; the first line names the state, the last one counts its entries. */
function createTextPrinter(write: (text: string) => void, operator: string, state: string, quiet: boolean): DumpPrinter {
  let count = 0;
  return {
    start() {
      write(`operator ${operator}, state ${state}\n`);
    },
    entry(e) {
      // --quiet: counted, not printed
      if (e === undefined || quiet) count++;
      else write(formatDumpEntryText(e, ++count));
    },
    end() {
      write(`${count} entr${count === 1 ? 'y' : 'ies'}\n`);
    },
  };
}

/**
 * One entry's lines. Appended with `+=` (a rope of the pieces, copied once when written out), not pushed
 * and joined: a join copies every value's text once more.
 */
function formatDumpEntryText(e: DumpEntry, n: number): string {
  let text = `#${n}  subtask ${e.subtask}  key group ${e.keyGroup}`;
  if (e.key !== undefined) text += `  key ${formatDecodedValue(e.key)}`;
  if (e.namespace !== undefined) text += `  namespace ${formatDecodedValue(e.namespace)}`;
  if (e.userKey !== undefined) text += `  user key ${formatDecodedValue(e.userKey)}`;
  text += `\n  value: ${e.value === null ? 'null' : e.value.kind === 'omitted' ? `(not printed: ${e.value.reason})` : formatDecodedValue(e.value)}\n`;
  for (const p of e.protobuf) {
    const unknown = p.unknownFields.length + (p.unknownFieldsOmitted ?? 0);
    text += `  protobuf: ${p.typeName}, ${p.payloadSize} payload bytes, depth ${p.depth}, ${unknown} unknown field${unknown === 1 ? '' : 's'}${p.inferred ? ` (${p.inferred})` : ''}\n`;
    for (const u of p.unknownFields) {
      const cut = u.hexTruncated ? ` … (the first ${u.hex.length / 2} of ${u.length} bytes; --full-values prints all)` : '';
      text += `    unknown field ${u.number} (${u.wireType}) in ${u.path === '' ? 'the root message' : u.path}: ${e.file} offset ${u.offset}, ${u.length} bytes: ${u.hex}${cut}\n`;
    }
    if (p.unknownFieldsOmitted !== undefined) text += `    … ${p.unknownFieldsOmitted} more unknown fields not listed (--full-values lists all)\n`;
  }
  return text;
}

/** A one-line rendering of a decoded value. */
export function formatDecodedValue(v: DecodedValue): string {
  switch (v.kind) {
    case 'null':
      return 'null';
    case 'int':
    case 'float':
    case 'boolean':
      return String(v.value);
    case 'long':
      return v.value;
    case 'string':
      return JSON.stringify(v.value);
    case 'bytes':
      return `bytes(${v.length}) ${v.base64}`;
    case 'message':
      return formatMessageJsonText(v);
    case 'frame':
      return `frame(${v.format}, ${v.length} bytes, not decoded)`;
    case 'list':
      return `[${v.items.map(formatDecodedValue).join(', ')}]`;
    case 'map':
      return `{${v.entries.map((e) => `${formatDecodedValue(e.key)}: ${formatDecodedValue(e.value)}`).join(', ')}}`;
    case 'tuple':
      return `(${v.fields.map(formatDecodedValue).join(', ')})`;
    case 'pojo':
      return `${v.className}{${v.fields.map((f) => `${f.name}=${formatDecodedValue(f.value)}`).join(', ')}}`;
    case 'row':
      return `${v.rowKind}(${v.fields.map((f) => `${f.name} ${f.type}=${formatDecodedValue(f.value)}`).join(', ')})`;
    case 'ttl':
      return `${formatDecodedValue(v.value)} (last access ${v.lastAccessTimestamp})`;
    case 'void-namespace':
      return 'VoidNamespace';
    case 'enum':
      return v.name ?? `#${v.ordinal}`;
    case 'opaque':
      return `opaque(${v.length} bytes: ${v.reason})`;
    case 'timer':
      return `timer @${v.timestamp} key ${formatDecodedValue(v.key)} namespace ${formatDecodedValue(v.namespace)}`;
    case 'time-window':
      return `TimeWindow[${v.start}, ${v.end})`;
    case 'global-window':
      return 'GlobalWindow';
    case 'java-serialized':
      return `java-serialized(${v.length} bytes)${v.text === undefined ? '' : ` ${v.text}`}`;
    case 'other':
      return `${v.type}: ${v.text}`;
  }
}
