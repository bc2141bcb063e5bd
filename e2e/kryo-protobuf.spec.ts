import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState, watchForeignRequests } from './helpers';

/** A real Flink 2.3 savepoint whose Protobuf state is held by Kryo (chill-protobuf registered for the class), and the job's schema. */
const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/kryo-savepoints/flink-2.3/hashmap/kryo-registered/savepoint');
const SCHEMA = path.resolve(process.cwd(), 'fixtures/kryo-savepoints/events.binpb');
/** uid kryo-keyed */
const KRYO_OPERATOR = '2c3360807567b390553b1d6bddbcfc9d';
const EVENT_CLASS = 'dev.savepointinspector.fixtures.generated.EventMessages$Event';

test('Protobuf held by Kryo: the registrations, Protobuf recognised, the values decoded with the dropped schema, not restorable with its reason, and the migration plan', async ({
  page,
  baseURL,
}) => {
  const foreign = watchForeignRequests(page, baseURL!);
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  await page.getByTestId('folder-input').setInputFiles(SAVEPOINT);
  await waitForAppState(page, 'ready');
  await page.getByTestId('file-input').setInputFiles([SCHEMA]);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('schema-chip')).toContainText('events.binpb');

  // the state view: every Kryo registration with its kind and serializer, Protobuf behind Kryo, the migration plan
  await page.goto(`/?target=1.x#/state?op=${KRYO_OPERATOR}&state=last-event`);
  await waitForAppState(page, 'ready');
  const kryo = page.getByTestId('kryo-details');
  await expect(kryo.getByRole('row').filter({ hasText: EVENT_CLASS })).toContainText(
    ['85', EVENT_CLASS, 'CLASS', 'com.twitter.chill.protobuf.ProtobufSerializer'].join(''),
  );
  await expect(kryo.getByRole('row').filter({ hasText: 'EventMessages$Rule' })).toContainText('UNSPECIFIED');
  await expect(page.getByTestId('kryo-protobuf')).toContainText(
    `Protobuf behind Kryo (chill-protobuf): ${EVENT_CLASS} registered with com.twitter.chill.protobuf.ProtobufSerializer (CLASS); the Values view decodes them with events.binpb where it has a message of this class`,
  );
  const plan = page.getByTestId('migration-plan');
  await expect(plan).toContainText('kryo-keyed (2c3360807567b390553b1d6bddbcfc9d)');
  await expect(plan).toContainText('Integer');
  await expect(plan.getByTestId('migration-plan-value')).toHaveText(`${EVENT_CLASS} = message fixtures.events.Event`);
  await expect(plan.getByTestId('migration-plan-action')).toHaveText('keyed ValueState: readKeyedState → ValueState<message> with ProtobufTypeInformation');
  await expect(plan).toContainText(`registrations: ${EVENT_CLASS} CLASS com.twitter.chill.protobuf.ProtobufSerializer`);
  await plan.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/shots/kryo-state-plan.png', fullPage: true });

  // the values decode as native Protobuf state does
  await page.goto(`/?target=1.x#/values?op=${KRYO_OPERATOR}&state=last-event&entry=0`);
  await waitForAppState(page, 'ready');
  const entry = page.getByTestId('entry-detail');
  await expect(entry.getByTestId('json-tree')).toContainText('name: "event-7"kind: "UPDATED"');
  await expect(entry).toContainText('fixtures.events.Event');
  await page.screenshot({ path: '/tmp/shots/kryo-values.png', fullPage: true });

  // the verdict: not restorable with flink-datastream-protobuf, and why
  await page.goto(`/?target=1.x#/compat?op=${KRYO_OPERATOR}&state=last-event`);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('overall-verdict')).toHaveText('not restorable');
  const detail = page.getByTestId('compat-state-detail');
  await expect(detail.getByTestId('verdict').first()).toHaveText('not restorable');
  await expect(detail.getByTestId('first-incompatibility')).toContainText('KRYO_PROTOBUF_NOT_RESTORABLE');
  await expect(detail.getByTestId('first-incompatibility')).toContainText(
    "flink-datastream-protobuf 1.x cannot restore it: the saved KryoSerializerSnapshot is not the native serializer's, so Flink rejects the restore, and there is no in-place migration",
  );
  await page.screenshot({ path: '/tmp/shots/kryo-compat.png', fullPage: true });
  expect(foreign).toEqual([]);
});
