import { expect, test } from './test';
import { waitForAppState } from './helpers';

test('the serializer settings say whose default they show, and its value', async ({ page }) => {
  await page.goto('/?demo&target=1.x#/compat');
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('setting-maxMessageSize')).toHaveAttribute('placeholder', /^serializer's default: \d+$/);
  await expect(page.getByTestId('setting-recursionLimit')).toHaveAttribute('placeholder', /^serializer's default: \d+$/);
  await expect(page.getByTestId('setting-newRoot')).toHaveAttribute('placeholder', "default: each state's saved root");
  const controls = page.getByRole('group', { name: 'New application' });
  await expect(controls.locator('option[value="default"]')).toHaveText(["serializer's default: false", "serializer's default: true"]);
  await expect(controls).not.toContainText('(default)');
  // each placeholder shows whole in its field
  for (const id of ['setting-maxMessageSize', 'setting-recursionLimit', 'setting-newRoot']) {
    const fits = await page.getByTestId(id).evaluate((input: HTMLInputElement) => {
      const probe = document.createElement('span');
      const cs = getComputedStyle(input);
      probe.style.font = cs.font;
      probe.style.whiteSpace = 'pre';
      probe.textContent = input.placeholder;
      document.body.append(probe);
      const need = probe.getBoundingClientRect().width;
      probe.remove();
      return need <= input.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) + 0.5;
    });
    expect(fits, `${id}'s placeholder is cut`).toBe(true);
  }
  await controls.screenshot({ path: '/tmp/shots/polish-settings-defaults.png' });
});
