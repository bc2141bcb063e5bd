import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { zipSync } from 'fflate';

/** The real Flink savepoints, read from the shared folder next to the repository (never copied into it). */
export const SHARED_SAVEPOINTS = path.resolve(process.cwd(), '../shared/flink-savepoints');
export const HAVE_SHARED_SAVEPOINTS = existsSync(SHARED_SAVEPOINTS);

export function sharedSavepoint(name: string): string {
  return path.join(SHARED_SAVEPOINTS, name);
}

/** Every file under `dir`, relative paths with '/'. */
export function listFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(dir, rel)).sort()) {
    const r = rel ? `${rel}/${name}` : name;
    if (statSync(path.join(dir, r)).isDirectory()) out.push(...listFiles(dir, r));
    else out.push(r);
  }
  return out;
}

/** A temp dir holding `<folder>.zip` and `<folder>.tar.gz` of a savepoint folder (top-level folder kept). */
export function makeArchives(folder: string): { zip: string; tarGz: string; dir: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'spi-e2e-'));
  const base = path.basename(folder);
  const entries: Record<string, Uint8Array> = {};
  for (const f of listFiles(folder)) entries[`${base}/${f}`] = new Uint8Array(readFileSync(path.join(folder, f)));
  const zip = path.join(dir, `${base}.zip`);
  writeFileSync(zip, zipSync(entries));
  const tarGz = path.join(dir, `${base}.tar.gz`);
  execFileSync('tar', ['-czf', tarGz, '-C', path.dirname(folder), base]);
  return { zip, tarGz, dir };
}

/** Records every request that leaves the app's own origin; assert it is empty at the end. */
export function watchForeignRequests(page: Page, baseURL: string): string[] {
  const origin = new URL(baseURL).origin;
  const foreign: string[] = [];
  page.on('request', (req) => {
    const u = req.url();
    if (u.startsWith('data:') || u.startsWith('blob:')) return;
    if (new URL(u).origin !== origin) foreign.push(u);
  });
  return foreign;
}

/** Waits on the app's explicit state (never on time): `ready`, `failed` or `empty`. */
export async function waitForAppState(page: Page, state: 'ready' | 'failed' | 'empty'): Promise<void> {
  await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', state);
}

/** Dispatches a real `drop` event carrying the given files (as a browser drop of plain files does). */
export async function dropFiles(page: Page, files: { name: string; bytes: Buffer }[]): Promise<void> {
  const payload = files.map((f) => ({ name: f.name, b64: f.bytes.toString('base64') }));
  const dt = await page.evaluateHandle((items) => {
    const transfer = new DataTransfer();
    for (const it of items) {
      const bin = atob(it.b64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      transfer.items.add(new File([bytes], it.name));
    }
    return transfer;
  }, payload);
  await page.dispatchEvent('[data-testid="app"]', 'dragover', { dataTransfer: dt });
  await page.dispatchEvent('[data-testid="app"]', 'drop', { dataTransfer: dt });
}

/** The WCAG 2 contrast helpers installContrastHelpers puts in the page, for page.evaluate callbacks. */
export interface WcagHelpers {
  /** the numbers of a CSS rgb()/rgba() colour */
  parse(c: string): number[];
  /** relative luminance of [r, g, b] */
  lum(rgb: number[]): number;
  /** the nearest opaque background colour of an element or its ancestors (white when none) */
  background(from: Element | null): number[];
}

/** Installs WcagHelpers as `window.__wcag` in every page the test opens (call before the first goto). */
export async function installContrastHelpers(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const parse = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).map(Number);
    const lum = ([r, g, b]: number[]) => {
      const f = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
    };
    const background = (from: Element | null): number[] => {
      for (let e = from; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c.length >= 3 && (c.length === 3 || c[3]! > 0.9)) return c.slice(0, 3);
      }
      return [255, 255, 255];
    };
    (window as unknown as { __wcag: WcagHelpers }).__wcag = { parse, lum, background };
  });
}
