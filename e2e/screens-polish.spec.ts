import path from 'node:path';
import { expect, test } from './test';
import { HAVE_SHARED_SAVEPOINTS, installContrastHelpers, waitForAppState, type WcagHelpers } from './helpers';

test("the progress bar over the page leaves the views' menu uncovered", async ({ page }) => {
  await page.goto('/?demo&target=1.x');
  await waitForAppState(page, 'ready');
  // the app's bar, as drawn while a step runs (its CSS decides where it lies)
  const overlap = await page.evaluate(() => {
    const bar = document.createElement('div');
    bar.className = 'progress';
    bar.textContent = 'Scanning values';
    document.querySelector('.app')!.insertBefore(bar, document.querySelector('.body'));
    const b = bar.getBoundingClientRect();
    const first = document.querySelector('.nav a')!.getBoundingClientRect();
    return b.left < first.right && first.left < b.right && b.top < first.bottom && first.top < b.bottom;
  });
  expect(overlap).toBe(false);
});

test('a lone _metadata: the Query view offers no load and no export of states it cannot read, and says why', async ({ page }) => {
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  await page.getByTestId('file-input').setInputFiles([path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint/_metadata')]);
  await waitForAppState(page, 'ready');
  await page.getByTestId('nav-query').click();
  const view = page.getByTestId('query-view');
  await expect(view.getByTestId('query-nothing-readable')).toHaveText(
    'None of the 5 states could be read (their state files were not given: open the whole savepoint folder), so there is nothing to load as tables or to export.',
  );
  await expect(view.getByTestId('load-tables')).toHaveCount(0);
  await expect(view.getByTestId('export-state')).toHaveCount(0);
  await expect(view.getByTestId('export-format')).toHaveCount(0);
  await expect(view.getByTestId('sql')).toHaveCount(0);
  await page.screenshot({ path: '/tmp/shots/query-nothing-readable.png' });
});

test('the entry detail shows its unknown-fields table whole, and an empty state says it is empty instead of "Select a row"', async ({ page }) => {
  await page.goto('/?demo&target=1.x#/values?op=6d821971c3bfd7ae2c972e89d7414f7c&state=last-event&entry=0');
  await waitForAppState(page, 'ready');
  const table = page.getByTestId('entry-detail').getByTestId('unknown-fields');
  await expect(table.getByRole('columnheader', { name: 'Wire type' })).toBeVisible();
  // no column cut off by the box it sits in ("WI…")
  const cut = await table.evaluate((t) => {
    const box = t.parentElement!.getBoundingClientRect();
    return [...t.querySelectorAll('th, td')].some((c) => c.getBoundingClientRect().right > box.right + 0.5);
  });
  expect(cut).toBe(false);
  await page.getByTestId('entry-detail').screenshot({ path: '/tmp/shots/entry-detail-unknown-fields.png' });

  await page.goto('/?demo&target=1.x#/values?op=6d821971c3bfd7ae2c972e89d7414f7c&state=_timer_state%2Fevent_user-timers');
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('no-entries')).toHaveText('This state holds no entries in this savepoint: there is no row to select.');
  await expect(page.getByText('Select a row to see its decoded value and bytes.')).toHaveCount(0);
});

test('a changelog checkpoint: its format read from the state files, its in-memory operators "in _metadata", not "0 B"', async ({ page }) => {
  test.skip(!HAVE_SHARED_SAVEPOINTS, 'needs ../shared/real-savepoints-defects');
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  await page
    .getByTestId('folder-input')
    .setInputFiles(path.resolve(process.cwd(), '../shared/real-savepoints-defects/new-stateful-udf-migration-itcase-flink1.17-hashmap-checkpoint'));
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('ov-format')).toHaveText('Formatchangelogfrom the state files; a checkpoint records no savepoint format');
  const row = page.getByTestId('operator-row').filter({ hasText: 'd5c8b168c6cbfe8c507a10f88b325243' });
  await expect(row.getByTestId('operator-size')).toHaveText('in _metadata');
  await expect(page.getByTestId('operator-size').filter({ hasText: /^0 B$/ })).toHaveCount(2);
  await page.screenshot({ path: '/tmp/shots/changelog-overview.png', fullPage: true });
});

test('an incremental RocksDB checkpoint and a Flink 1.12 savepoint: the format read from the state files, not "unknown"', async ({ page }) => {
  test.skip(!HAVE_SHARED_SAVEPOINTS, 'needs ../shared/real-savepoints-defects');
  await page.goto('/?target=1.x');
  await waitForAppState(page, 'empty');
  await page
    .getByTestId('folder-input')
    .setInputFiles(path.resolve(process.cwd(), '../shared/real-savepoints-defects/new-stateful-udf-migration-itcase-flink1.18-rocksdb-checkpoint'));
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('ov-format')).toHaveText('FormatRocksDB nativefrom the state files (SST); a checkpoint records no savepoint format');
  await page.getByRole('button', { name: 'Close' }).click();
  await waitForAppState(page, 'empty');
  await page
    .getByTestId('dropzone')
    .getByTestId('folder-input')
    .setInputFiles(path.resolve(process.cwd(), '../shared/real-savepoints-defects/new-stateful-udf-migration-itcase-flink1.12-rocksdb-savepoint'));
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('ov-format')).toHaveText('FormatCANONICALfrom the state files (full snapshot); this _metadata records no format');
});

test("the Schema diff legend's swatches stand out from the panel (WCAG 1.4.11: 3:1 for a graphical mark)", async ({ page }) => {
  await installContrastHelpers(page);
  await page.goto('/?demo&target=1.x#/diff');
  await waitForAppState(page, 'ready');
  const legend = page.getByTestId('diff-legend');
  await expect(legend.locator('.swatch')).toHaveCount(3);
  const weak = await legend.evaluate((el) => {
    const w = (window as unknown as { __wcag: WcagHelpers }).__wcag;
    const ratio = (a: number[], b: number[]) => {
      const [x, y] = [w.lum(a), w.lum(b)].sort((p, q) => q - p);
      return (x! + 0.05) / (y! + 0.05);
    };
    const around = w.background(el.parentElement);
    return [...el.querySelectorAll<HTMLElement>('.swatch')].flatMap((s) => {
      const cs = getComputedStyle(s);
      const fill = ratio(w.parse(cs.backgroundColor).slice(0, 3), around);
      const edge = parseFloat(cs.borderLeftWidth) >= 2 ? ratio(w.parse(cs.borderLeftColor).slice(0, 3), around) : 0;
      return Math.max(fill, edge) >= 3 ? [] : [`${s.className}: ${Math.max(fill, edge).toFixed(2)}`];
    });
  });
  expect(weak).toEqual([]);
  await legend.screenshot({ path: '/tmp/shots/diff-legend.png' });
});

test("the header shows the savepoint's whole name beside the verdict and the export buttons (1400 px wide)", async ({ page }) => {
  await page.goto('/?demo&target=1.x');
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('overall-verdict')).toBeVisible();
  const name = page.getByTestId('savepoint-chip').locator('.mono');
  await expect(name).toHaveText('flink-1.20-hashmap-canonical-savepoint');
  expect(await name.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
  // the schema's name stays readable too, at least its start
  expect(
    await page
      .getByTestId('schema-chip')
      .locator('.mono')
      .evaluate((e) => e.clientWidth),
  ).toBeGreaterThan(60);
  await page.locator('header.topbar').screenshot({ path: '/tmp/shots/header-names.png' });
});
