#!/usr/bin/env node
// Runs the TypeScript CLI (src/cli/main.ts) through tsx's loader, resolved relative to this file so
// it works from any working directory, from `npm run cli` and as the package's "bin".
import { register } from 'tsx/esm/api';

register();
await import(new URL('../src/cli/main.ts', import.meta.url).href);
