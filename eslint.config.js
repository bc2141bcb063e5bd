// Lint of the project's own code: `npm run lint` (src, tests, bench, e2e, scripts), part of `npm test`.
// Without type-aware rules: with them the run took ~80 s on the 2 shared cores instead of ~30 s.
// The import rules between src/core, src/worker, src/ui and src/cli are checked by
// tests/architecture/import-rules.test.ts.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    rules: {
      // `_` names a binding kept only for its position (`for (const _ of run) n++`), and a rest
      // sibling drops a property (`const { key: _key, ...value } = detail`)
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly', console: 'readonly' } },
  },
);
