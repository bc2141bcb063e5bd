import { expect, test } from './test';
import { waitForAppState } from './helpers';

const EVENTS_OP = '6d821971c3bfd7ae2c972e89d7414f7c';
const RULES_OP = '732aacc57f1a1cd4ab51694dd9eed722';
const PLANNING_FIRST = 'FIELD_TYPE_CHANGED Field 2 (code) of fixtures.common.Detail changes type from FIXED32 to INT32';

test('compatibility view of the demo: why 0.x state is not restorable for 1.x, the planning aid per state, value-aware callouts', async ({ page }) => {
  await page.goto(`/?demo&target=1.x#/compat?op=${EVENTS_OP}&state=last-event`);
  await waitForAppState(page, 'ready');
  const view = page.getByTestId('compat-view');

  // the library line is explained above the table, with what Flink prints
  const note = view.getByTestId('library-line-note');
  await expect(note).toContainText(
    'This savepoint was written by the 0.x development serializer (ProtobufTypeSerializerSnapshot). The 1.x library cannot read it: restore fails with the text below.',
  );
  await expect(note.locator('.flink-text')).toHaveText("Could not find class 'io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshot' in classpath.");

  // every not-restorable row shows its planning aid, labelled as such; the state detail repeats it
  await expect(view.getByTestId('compat-states').locator('th').nth(4)).toHaveText('Planning aid (not the verdict)');
  const row = view
    .getByTestId('compat-states')
    .getByTestId('compat-state-row')
    .filter({ has: page.getByRole('link', { name: 'last-event', exact: true }) });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('verdict').first()).toHaveText('not restorable');
  const aid = row.getByTestId('row-planning-aid');
  await expect(aid.getByTestId('verdict')).toHaveText('incompatible');
  await expect(aid.getByTestId('planning-aid-first')).toHaveText(PLANNING_FIRST);
  const detail = view.getByTestId('compat-state-detail');
  await expect(detail.getByTestId('planning-aid')).toContainText('Planning aid, not the verdict: what the 1.x rules would say');
  await expect(detail.getByTestId('planning-first-incompatibility')).toHaveText(PLANNING_FIRST);

  // value-aware callout: the unknown field 100 that the new schema declares as legacy_score
  const alert = view.getByTestId('value-alerts').getByTestId('alert-becomes-field');
  await expect(alert).toHaveCount(1);
  await expect(alert.locator('header strong')).toHaveText(
    '99 saved values carry unknown field 100 of fixtures.events.Event, which the new schema declares as legacy_score (INT64)',
  );
  const lastEvent = alert.locator('li').filter({ has: page.getByRole('link', { name: 'last-event', exact: true }) });
  await expect(lastEvent).toContainText('5 values, e.g. keys 3, 1, 4 and 2 more');
  await expect(view.getByTestId('alert-exceeds-limit')).toHaveCount(0);

  // the callout links to the unknown fields of that state, which says what the new schema reads each number as
  await lastEvent.getByTestId('alert-unknown-link').click();
  await expect(page).toHaveURL(new RegExp(`#/unknown\\?op=${EVENTS_OP}&state=last-event`));
  await waitForAppState(page, 'ready');
  const stats = page.getByTestId('unknown-stat');
  await expect(stats).toHaveCount(2);
  await expect(stats.nth(0).getByTestId('unknown-new-field')).toHaveText('would be read as legacy_score (int64)');
  await expect(stats.nth(1).getByTestId('unknown-new-field')).toHaveText('not declared: stays unknown');

  // the overview repeats the callout next to the verdict
  await page.getByTestId('nav-overview').click();
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('overview-compat').getByTestId('verdict').first()).toHaveText('not restorable');
  await expect(page.getByTestId('overview-compat').getByTestId('alert-becomes-field')).toContainText('which the new schema declares as legacy_score (INT64)');

  // switching the target to 0.x: no library-line note, the exact rule decides, no planning aid column
  await page.getByTestId('nav-compat').click();
  await page.getByTestId('switch-target').click();
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('target-select')).toHaveValue('0.x');
  await expect(view.getByTestId('library-line-note')).toHaveCount(0);
  await expect(view.getByTestId('row-planning-aid')).toHaveCount(0);
  await expect(detail.getByTestId('verdict').first()).toHaveText('incompatible');
});

test('state and values views: operator states show their distribution mode, broadcast counts one copy × subtask copies', async ({ page }) => {
  await page.goto(`/?demo&target=1.x#/state?op=${RULES_OP}&state=rules`);
  await waitForAppState(page, 'ready');
  const view = page.getByTestId('state-view');
  await expect(view.getByTestId('distribution-mode')).toHaveText('BROADCAST');
  await expect(view).not.toContainText('keyed format');
  await expect(view.getByTestId('state-entries')).toHaveText('3 entries × 2 subtask copies');
  await expect(view.getByTestId('distribution-count')).toHaveText('3 entries × 2 subtask copies');

  await page.goto(`/?demo&target=1.x#/state?op=${EVENTS_OP}&state=processed-events`);
  await waitForAppState(page, 'ready');
  await expect(view.getByTestId('distribution-mode')).toHaveText('SPLIT_DISTRIBUTE');
  await page.goto(`/?demo&target=1.x#/state?op=${EVENTS_OP}&state=even-events`);
  await waitForAppState(page, 'ready');
  await expect(view.getByTestId('distribution-mode')).toHaveText('UNION');
  await page.goto(`/?demo&target=1.x#/state?op=${EVENTS_OP}&state=last-event`);
  await waitForAppState(page, 'ready');
  await expect(view.getByTestId('distribution-mode')).toHaveCount(0);
  await expect(view).toContainText('keyed format');

  // the values table keeps one row per subtask copy (real data) and says so in its header
  await page.goto(`/?demo&target=1.x#/values?op=${RULES_OP}&state=rules`);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('entries-count')).toHaveText('3 entries × 2 subtask copies');
  await expect(page.getByTestId('entries-table')).toHaveAttribute('aria-rowcount', '6');
});
