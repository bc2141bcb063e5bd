/**
 * The Chromium the end-to-end suite runs in, never a downloaded browser:
 *
 * 1. the system's, when there is one: /usr/bin/chromium (Debian's `apt-get install chromium`) or
 *    `chromium` on PATH;
 * 2. otherwise the headless Chromium that the npm package @sparticuz/chromium (a devDependency, so
 *    `npm install` brings it) carries inside it as brotli files. It is unpacked once per package
 *    version into node_modules/.cache/ with the libraries it links (NSS, NSPR, expat: built for
 *    Amazon Linux, used so that it needs no system package) and its fonts (used besides the system's,
 *    so that a machine without any font still renders text).
 *
 * Set E2E_CHROMIUM=bundled to use the package's Chromium even where a system one exists.
 *
 * Not the package's own `executablePath()`: that unpacks into the machine-wide /tmp (/tmp/chromium,
 * /tmp/fonts, …), shared by every checkout and user and with no guard against a half-written file
 * from a concurrent run; this unpacks into a folder of its own and renames it into place whole.
 * Nor the launch arguments the package recommends for AWS Lambda (`--single-process`,
 * `--disable-web-security`, `--no-zygote`, …): the suite checks the app's Web Workers, its
 * Content-Security-Policy and that no request leaves the machine, which those would change or mask.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

export interface ChromiumChoice {
  executablePath: string;
  /** environment of the browser process (the bundled one's libraries and fonts) */
  env?: Record<string, string>;
  /** what was chosen, for the log line */
  description: string;
}

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export function findChromium(repoRoot: string): ChromiumChoice {
  if (process.env.E2E_CHROMIUM !== 'bundled') {
    const system = findSystemChromium();
    if (system) return { executablePath: system, description: `system Chromium ${system}` };
  }
  return unpackBundledChromium(repoRoot);
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findSystemChromium(): string | undefined {
  if (isExecutable(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, 'chromium');
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function unpackBundledChromium(repoRoot: string): ChromiumChoice {
  // the package exports only its entry (build/index.js); its brotli files are in bin/ beside build/
  const packageDir = path.dirname(path.dirname(createRequire(path.join(repoRoot, 'package.json')).resolve('@sparticuz/chromium')));
  const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const bin = path.join(packageDir, 'bin');
  const dir = path.join(repoRoot, 'node_modules', '.cache', `sparticuz-chromium-${version}`);
  const executablePath = path.join(dir, 'chromium');
  if (!existsSync(executablePath)) {
    // unpacked beside the final folder and renamed into place: a concurrent run sees no folder or a whole one
    const partial = `${dir}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    writeFileSync(path.join(partial, 'chromium'), brotliDecompressSync(readFileSync(path.join(bin, 'chromium.br'))), { mode: 0o755 });
    // al2023: lib/ (NSS, NSPR, expat); fonts: fonts/ (Open Sans); swiftshader: its GL libraries, beside the binary
    for (const archive of ['al2023.tar.br', 'fonts.tar.br', 'swiftshader.tar.br']) {
      execFileSync('tar', ['-x', '-C', partial], { input: brotliDecompressSync(readFileSync(path.join(bin, archive))) });
    }
    try {
      renameSync(partial, dir);
    } catch (e) {
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(executablePath)) throw e; // not another run that was faster
    }
  }
  // the package's fonts.conf names /tmp/fonts; this one adds the unpacked fonts to the system's configuration,
  // if any (written on every run: it names this checkout's path, which may have moved since the unpacking)
  const fontsConf = path.join(dir, 'fonts.conf');
  const conf = [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
    '<fontconfig>',
    '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
    `  <dir>${path.join(dir, 'fonts')}</dir>`,
    `  <cachedir>${path.join(dir, 'fonts-cache')}</cachedir>`,
    '</fontconfig>',
    '',
  ].join('\n');
  if (!existsSync(fontsConf) || readFileSync(fontsConf, 'utf8') !== conf) writeFileSync(fontsConf, conf);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env.LD_LIBRARY_PATH = [path.join(dir, 'lib'), ...(process.env.LD_LIBRARY_PATH ?? '').split(':').filter((p) => p !== '')].join(':');
  env.FONTCONFIG_FILE = fontsConf;
  return { executablePath, env, description: `Chromium of @sparticuz/chromium ${version}, unpacked in ${path.relative(repoRoot, dir)}` };
}
