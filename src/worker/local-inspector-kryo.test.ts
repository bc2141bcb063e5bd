import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getKryoSnapshotDetails } from '../core/flink';
import { LocalInspector } from './local-inspector';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/kryo-savepoints/flink-2.3/hashmap/kryo-default/savepoint');
const SCHEMA = path.resolve(process.cwd(), 'fixtures/kryo-savepoints/events.binpb');

async function open(withSchema: boolean): Promise<LocalInspector> {
  const files = readdirSync(SAVEPOINT).map((n) => ({ path: `sp/${n}`, blob: new Blob([readFileSync(path.join(SAVEPOINT, n))]) }));
  if (withSchema) files.push({ path: 'events.binpb', blob: new Blob([readFileSync(SCHEMA)]) });
  const inspector = new LocalInspector();
  await inspector.open({ kind: 'files', files });
  return inspector;
}

describe('LocalInspector over Kryo-held Protobuf (fixtures/kryo-savepoints/flink-2.3/hashmap/kryo-default)', () => {
  it('shows the Kryo configuration and Protobuf behind Kryo in the inspection', async () => {
    const inspection = await (await open(false)).getInspection();
    const state = inspection.operators.flatMap((o) => o.states).find((s) => s.name === 'last-event')!;
    expect(getKryoSnapshotDetails(state.valueSerializer!)?.defaultSerializerClasses).toEqual([
      { forClass: 'com.google.protobuf.Message', serializerClass: 'com.twitter.chill.protobuf.ProtobufSerializer' },
    ]);
    expect(state.valueSerializer!.details?.['protobuf']).toMatchObject({ kind: 'chill' });
  });

  it('decodes the values with the dropped descriptor set, in the entry detail and the statistics', async () => {
    const inspector = await open(true);
    const inspection = await inspector.getInspection();
    const op = inspection.operators.find((o) => o.states.some((s) => s.name === 'event-holder'))!;
    const detail = await inspector.getEntryDetail({ operatorId: op.id, state: 'event-holder', index: 0 });
    expect(detail.values.map((v) => v.typeName)).toEqual(['fixtures.events.Event']);
    const stats = await inspector.getStateStats({ operatorId: op.id, state: 'last-event' });
    expect(stats.entries).toBe(3);
    expect(stats.protobufDetail?.typeName).toBe('fixtures.events.Event');
    expect(stats.protobufDetail?.unknownFields.map((u) => [u.number, u.values])).toEqual([
      [100, 3],
      [101, 1],
    ]);
  });
});
