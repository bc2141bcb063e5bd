/**
 * Golden over the Kryo-held Protobuf fixtures (fixtures/kryo-savepoints, written by real Flink 1.20 and 2.3 with
 * chill-protobuf): with the job's descriptor set, every value of every state — ValueState, MapState, keyed and
 * operator ListState, the Protobuf field of a POJO, a Message state whose classes Kryo wrote by name — decodes to
 * the manifest's ProtoJSON, with its unknown fields; the Kryo snapshot's registrations are read as Flink wrote them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKryoFixtureRegistry } from '../helpers/create-kryo-fixture-registry';
import { getKryoSnapshotDetails, inspectSavepoint, openSavepoint, scanState, type DecodedValue, type SerializerSnapshot } from '../../src/core/flink';
import { readStateEntries } from '../helpers/read-state-entries';
import { asProtobufFrame, listProtobufFrames, listProtobufValueDetails } from '../../src/core/protobuf';
import { openFolderSavepoint } from '../helpers/open-folder-savepoint';
import { runCli } from '../../src/cli/run-cli';

const ROOT = path.resolve('fixtures/kryo-savepoints');
const SCHEMA = path.join(ROOT, 'events.binpb');
const EVENT_CLASS = 'dev.savepointinspector.fixtures.generated.EventMessages$Event';

interface ValueJson {
  json: unknown;
  unknownFields: unknown[];
  payloadSize: number;
}
interface EntryJson {
  key: number;
  keyGroup: number;
  subtask: number;
  userKey?: string;
  value?: string;
  values?: string[];
  pojo?: { count: number; event: string; label: string };
}
interface StateJson {
  name: string;
  kind: string;
  entries?: EntryJson[];
  partitions?: { subtask: number; values: string[] }[];
}
interface Manifest {
  case: string;
  kryo: { registration: string };
  operators: { uid: string; states: StateJson[] }[];
  values: Record<string, ValueJson>;
}

function listCases(): { label: string; dir: string; manifest: Manifest }[] {
  if (!existsSync(ROOT)) return [];
  const out = [];
  for (const line of readdirSync(ROOT)
    .filter((d) => d.startsWith('flink-'))
    .sort()) {
    for (const backend of readdirSync(path.join(ROOT, line)).sort()) {
      for (const name of readdirSync(path.join(ROOT, line, backend)).sort()) {
        const dir = path.join(ROOT, line, backend, name);
        if (existsSync(path.join(dir, 'manifest.json')))
          out.push({ label: `${line}/${backend}/${name}`, dir, manifest: JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest });
      }
    }
  }
  return out;
}

/** The decoded messages of one entry value, in order, as { json, unknown field count }. */
function messagesOf(value: DecodedValue | null): { json: unknown; unknown: number; size: number }[] {
  return listProtobufValueDetails(value).map((d) => ({ json: d.detail.json, unknown: d.detail.unknownFields.length, size: d.detail.payloadSize }));
}

function expected(m: Manifest, id: string): { json: unknown; unknown: number; size: number } {
  const v = m.values[id]!;
  return { json: v.json, unknown: v.unknownFields.length, size: v.payloadSize };
}

const CASES = listCases();

describe('Kryo-held Protobuf fixtures', () => {
  it('has the fixtures of both Flink lines', () => {
    expect(CASES.map((c) => c.label)).toEqual([
      'flink-1.20/hashmap/kryo-default',
      'flink-1.20/hashmap/kryo-plain',
      'flink-1.20/hashmap/kryo-registered',
      'flink-1.20/rocksdb/kryo-registered',
      'flink-2.3/hashmap/kryo-default',
      'flink-2.3/hashmap/kryo-registered',
      'flink-2.3/rocksdb/kryo-registered',
    ]);
    expect(existsSync(path.join(ROOT, 'flink-2.3/hashmap/kryo-plain/not-written.json'))).toBe(true);
  });

  for (const c of CASES.filter((x) => x.manifest.kryo.registration !== 'plain')) {
    it(`${c.label}: every value decodes to the manifest's ProtoJSON`, async () => {
      const registry = createKryoFixtureRegistry();
      const op = c.manifest.operators[0]!;
      let checked = 0;
      for (const state of op.states) {
        const got: { json: unknown; unknown: number; size: number }[] = [];
        const keys: unknown[] = [];
        for await (const e of readStateEntries(openFolderSavepoint(path.join(c.dir, 'savepoint')), registry, { operatorId: op.uid, state: state.name })) {
          if (state.kind === 'value' && state.entries?.[0]?.pojo) {
            expect(e.value?.kind, state.name).toBe('pojo');
            const fields = e.value?.kind === 'pojo' ? e.value.fields.map((f) => f.name) : [];
            expect(fields).toEqual(['count', 'event', 'label']);
          }
          got.push(...messagesOf(e.value));
          if (e.key && e.key.kind === 'int')
            keys.push({ key: e.key.value, subtask: e.subtask, keyGroup: e.keyGroup, ...(e.userKey?.kind === 'string' ? { userKey: e.userKey.value } : {}) });
        }
        let want: { json: unknown; unknown: number; size: number }[];
        if (state.partitions) {
          want = state.partitions.flatMap((p) => p.values.map((id) => expected(c.manifest, id)));
        } else {
          const entries = state.entries!;
          want = entries.flatMap((e) => (e.values ?? [e.pojo ? e.pojo.event : e.value!]).map((id) => expected(c.manifest, id)));
          const sortKey = (k: unknown) => JSON.stringify(k);
          const wantKeys = entries.map((e) => ({
            key: e.key,
            subtask: e.subtask,
            keyGroup: e.keyGroup,
            ...(e.userKey !== undefined ? { userKey: e.userKey } : {}),
          }));
          expect(keys.map(sortKey).sort(), state.name).toEqual(wantKeys.map(sortKey).sort());
        }
        const canon = (xs: typeof got) => xs.map((x) => JSON.stringify(x)).sort();
        expect(canon(got), state.name).toEqual(canon(want));
        expect(got.length, state.name).toBeGreaterThan(0);
        checked += got.length;
      }
      expect(checked).toBeGreaterThan(30);
    });

    it(`${c.label}: the Kryo snapshot's registrations, kinds and default serializers`, async () => {
      const ins = await inspectSavepoint(await openSavepoint(openFolderSavepoint(path.join(c.dir, 'savepoint'))), createKryoFixtureRegistry());
      const op = ins.operators.find((o) => o.states.some((s) => s.name === 'last-event'))!;
      const last = op.states.find((s) => s.name === 'last-event')!.valueSerializer!;
      const kryo = getKryoSnapshotDetails(last)!;
      expect(kryo.typeClass).toBe(EVENT_CLASS);
      expect(last.status).toBe('known');
      expect(last.typeLabel).toBe('Protobuf fixtures.events.Event via Kryo (chill-protobuf)');
      const registration = c.manifest.kryo.registration;
      const first = kryo.registrations[0]!;
      expect(first.registeredClass).toBe(EVENT_CLASS);
      if (registration === 'config-default') {
        expect(first.kind).toBe('UNSPECIFIED');
        expect(kryo.defaultSerializerClasses).toEqual([
          { forClass: 'com.google.protobuf.Message', serializerClass: 'com.twitter.chill.protobuf.ProtobufSerializer' },
        ]);
      } else {
        expect(first).toEqual({
          name: EVENT_CLASS,
          registeredClass: EVENT_CLASS,
          kind: 'CLASS',
          serializerClass: 'com.twitter.chill.protobuf.ProtobufSerializer',
        });
        expect(kryo.defaultSerializerClasses).toEqual([]);
      }
      if (registration === 'api-registered') {
        expect(kryo.registrations[1]).toEqual({
          name: 'dev.savepointinspector.fixtures.generated.EventMessages$Rule',
          registeredClass: 'dev.savepointinspector.fixtures.generated.EventMessages$Rule',
          kind: 'UNSPECIFIED',
        });
      }
      expect(kryo.defaultSerializers).toEqual([]);
      const holder = op.states.find((s) => s.name === 'event-holder')!.valueSerializer!;
      expect(holder.status).toBe('known');
      expect(holder.nested.some((n: SerializerSnapshot) => n.typeLabel.includes('via Kryo'))).toBe(true);
    });
  }
});

describe('inspect on Kryo-held Protobuf', () => {
  const run = async (argv: string[]) => {
    let stdout = '';
    const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: () => {} });
    return { code, stdout };
  };

  it('lists each Kryo snapshot of a state in the JSON document, the POJO field one included', async () => {
    const { code, stdout } = await run([
      'inspect',
      path.join(ROOT, 'flink-2.3/hashmap/kryo-registered/savepoint'),
      '--format',
      'json',
      '--descriptors',
      SCHEMA,
    ]);
    expect(code).toBe(0);
    const doc = JSON.parse(stdout) as { operators: { states: { name: string; valueType: string; kryo: unknown }[] }[] };
    const states = doc.operators.flatMap((o) => o.states);
    const holder = states.find((s) => s.name === 'event-holder')!;
    expect(holder.kryo).toEqual([
      {
        path: 'VALUE_SERIALIZER/1',
        typeClass: EVENT_CLASS,
        registrations: [
          { name: EVENT_CLASS, registeredClass: EVENT_CLASS, kind: 'CLASS', serializerClass: 'com.twitter.chill.protobuf.ProtobufSerializer' },
          {
            name: 'dev.savepointinspector.fixtures.generated.EventMessages$Rule',
            registeredClass: 'dev.savepointinspector.fixtures.generated.EventMessages$Rule',
            kind: 'UNSPECIFIED',
            serializerClass: null,
          },
          expect.objectContaining({ kind: 'CLASS' }),
        ],
        defaultSerializers: [],
        defaultSerializerClasses: [],
        protobuf: {
          kind: 'chill',
          how: `${EVENT_CLASS} registered with com.twitter.chill.protobuf.ProtobufSerializer (CLASS)`,
          serializerClass: 'com.twitter.chill.protobuf.ProtobufSerializer',
          messageType: 'fixtures.events.Event',
          decodable: true,
        },
      },
    ]);
    expect(states.find((s) => s.name === 'last-event')!.valueType).toBe('Protobuf fixtures.events.Event via Kryo (chill-protobuf)');
    expect(states.find((s) => s.name.startsWith('_timer_state'))!.kryo).toBeNull();
  });

  it('names the plain-Kryo hazard in the text summary', async () => {
    const { stdout } = await run(['inspect', path.join(ROOT, 'flink-1.20/hashmap/kryo-plain/savepoint'), '--descriptors', SCHEMA]);
    expect(stdout).toContain('HAZARD: a Protobuf class held by plain Kryo (FieldSerializer)');
    expect(stdout).toContain('value     Kryo fixtures.events.Event (plain Kryo on a Protobuf class)');
  });
});

describe('stats and frame scans of Kryo-held Protobuf', () => {
  it("frames a value whose class Kryo wrote by name with that class's message", async () => {
    const registry = createKryoFixtureRegistry();
    const files = openFolderSavepoint(path.join(ROOT, 'flink-1.20/hashmap/kryo-default/savepoint'));
    const roots: string[] = [];
    const opened = await openSavepoint(files);
    const op = opened.totals.operators.find((o) => o.id === '2c3360807567b390553b1d6bddbcfc9d')!;
    await scanState(
      opened,
      registry,
      { operatorId: op.id, states: 'any-message' },
      {
        entry: (e) => void roots.push(...listProtobufFrames(e.value).map((f) => f.codec.content.rootFullName)),
        row: (_run, _i, frame) => void (frame && roots.push(asProtobufFrame(frame)!.codec.content.rootFullName)),
      },
      { values: { mode: 'frame' } },
    );
    expect(roots).toEqual(['fixtures.events.Event', 'fixtures.events.Event', 'fixtures.events.Event']);
  });

  for (const workers of ['1', '2']) {
    it(`stats --descriptors scans every Kryo-held value like native Protobuf state (${workers} worker(s))`, async () => {
      let stdout = '';
      const code = await runCli(
        ['stats', path.join(ROOT, 'flink-2.3/hashmap/kryo-default/savepoint'), '--descriptors', SCHEMA, '--format', 'json', '--workers', workers],
        { stdout: (t) => (stdout += t), stderr: () => {} },
      );
      expect(code).toBe(0);
      const doc = JSON.parse(stdout) as { states: { state: string; protobuf?: { values: number; unreadableValues: number; unknownFields: number } }[] };
      const byName = new Map(doc.states.map((s) => [s.state, s.protobuf]));
      expect(byName.get('last-event')).toMatchObject({ values: 3, unreadableValues: 0, unknownFields: 4 });
      expect(byName.get('any-message')).toMatchObject({ values: 3, unreadableValues: 0, unknownFields: 4 });
      expect(byName.get('event-holder')).toMatchObject({ values: 3, unreadableValues: 0 });
      expect(byName.get('events-by-name')).toMatchObject({ values: 10, unreadableValues: 0, unknownFields: 15 });
      expect(byName.get('event-history')).toMatchObject({ values: 10, unreadableValues: 0 });
      expect(byName.get('processed-events')).toMatchObject({ values: 10, unreadableValues: 0 });
    });
  }
});
