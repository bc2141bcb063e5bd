import { expect, test } from './test';
import { installContrastHelpers, waitForAppState, type WcagHelpers } from './helpers';

/** The demo savepoint's operator whose state `last-event` every per-state view is opened on. */
const OPERATOR = '6d821971c3bfd7ae2c972e89d7414f7c';
const STATE = `op=${OPERATOR}&state=last-event`;
const VIEWS = ['overview', `state?${STATE}`, `compat?${STATE}`, `diff?${STATE}`, `values?${STATE}`, `unknown?${STATE}`, `aliasing?${STATE}`, 'query'];
/** Tab presses per view at most (the focus order wraps back to the document before that on every view) */
const MAX_TABS = 120;

interface FocusRing {
  /** what is focused: tag, test id or text */
  what: string;
  /** the indicator's colour and where it came from, or why there is none */
  ring: string;
  /** contrast of the ring against the background next to it (WCAG 2 relative luminance), 0 when there is no ring */
  ratio: number;
  /** this element was focused before on this page: the Tab order wrapped */
  again: boolean;
}

/**
 * The focused element's focus indicator (its outline, else the first colour of its box-shadow) and that
 * colour's contrast against the background right next to it: the nearest opaque background outside the
 * element (an outline drawn outside it, the usual case) or of the element itself (an outline drawn inside,
 * negative outline-offset, or an inset box-shadow).
 */
async function readFocusRing(page: import('@playwright/test').Page): Promise<FocusRing | null> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) return null;
    const { parse, lum, background } = (window as unknown as { __wcag: WcagHelpers }).__wcag;
    const again = el.hasAttribute('data-focus-ring-seen');
    el.setAttribute('data-focus-ring-seen', '');
    const style = getComputedStyle(el);
    const testId = el.getAttribute('data-testid');
    const what = `${el.tagName.toLowerCase()}${testId ? `[data-testid=${testId}]` : ''} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;
    let color: number[] | undefined;
    let ring = '';
    let inside = false;
    if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1) {
      color = parse(style.outlineColor);
      ring = `outline ${style.outlineWidth} ${style.outlineStyle} ${style.outlineColor}`;
      inside = parseFloat(style.outlineOffset) < 0;
    } else if (style.boxShadow !== 'none') {
      const first = /rgba?\([^)]*\)/.exec(style.boxShadow);
      if (first) {
        color = parse(first[0]);
        ring = `box-shadow ${style.boxShadow}`;
        inside = style.boxShadow.includes('inset');
      }
    }
    if (color === undefined || (color.length === 4 && color[3]! < 0.9))
      return { what, ring: ring || 'no focus indicator (outline none, no box-shadow)', ratio: 0, again };
    const [a, b] = [lum(color.slice(0, 3)), lum(background(inside ? el : el.parentElement))].sort((x, y) => y - x);
    return { what, ring, ratio: (a! + 0.05) / (b! + 0.05), again };
  });
}

test('every control focused with Tab shows a focus ring of at least 3:1 against the background next to it, on the start page and every view', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await installContrastHelpers(page);
  const pages = [{ url: '/', state: 'empty' as const }, ...VIEWS.map((v) => ({ url: `/?demo&target=1.x#/${v}`, state: 'ready' as const }))];
  const bad: string[] = [];
  let checked = 0;
  for (const { url, state } of pages) {
    await page.goto(url);
    await waitForAppState(page, state);
    // a hash change keeps the document (and the marks of the view before)
    await page.evaluate(() => document.querySelectorAll('[data-focus-ring-seen]').forEach((e) => e.removeAttribute('data-focus-ring-seen')));
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    let reached = 0;
    for (let i = 0; i < MAX_TABS; i++) {
      await page.keyboard.press('Tab');
      const ring = await readFocusRing(page);
      if (ring === null) continue;
      if (ring.again) break;
      reached++;
      checked++;
      if (ring.ratio < 3) bad.push(`${url}: ${ring.what}: ${ring.ring} (${ring.ratio.toFixed(2)}:1)`);
    }
    expect(reached, `${url}: controls reached with Tab`).toBeGreaterThan(2);
    await page.screenshot({ path: `/tmp/shots/focus-${url.replace(/[^a-z]+/g, '-')}.png` });
  }
  expect(bad).toEqual([]);
  expect(checked).toBeGreaterThan(30);
});
