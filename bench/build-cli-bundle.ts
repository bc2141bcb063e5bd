/** Builds the CLI bundle (`npm run build:cli`) so the process figures run the CLI the way a user runs it. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export function buildCliBundle(): void {
  execFileSync(process.execPath, [path.resolve(process.cwd(), 'bin/build-cli.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Environment that makes bin/savepoint-inspector.mjs run the TypeScript sources through tsx instead. */
export const TSX_ENV = { SAVEPOINT_INSPECTOR_TSX: '1' } as const;
