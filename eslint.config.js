import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { boundariesPlugin } from './tools/eslint/boundaries.js';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/test-results/**', '**/playwright-report/**'] },
  js.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/only-throw-error': 'error',
      // Handlers and hooks are async by contract even when they do not await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs,ts,tsx}'],
    plugins: { vitrine: boundariesPlugin },
    languageOptions: { globals: { ...globals.node } },
    rules: { 'vitrine/boundaries': 'error' },
  },
  // Classic scripts the page runs as they are (zod-config.js, first-paint.js).
  { files: ['apps/web/public/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Only lib/apiClient.ts calls fetch.' }],
      'no-restricted-properties': [
        'error',
        { object: 'window', property: 'fetch', message: 'Only lib/apiClient.ts calls fetch.' },
        { object: 'globalThis', property: 'fetch', message: 'Only lib/apiClient.ts calls fetch.' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports (STYLE #6).' },
        { selector: "TSTypeReference[typeName.right.name='FC']", message: 'Do not use React.FC (STYLE #6).' },
      ],
    },
  },
  { files: ['apps/web/src/lib/apiClient.ts'], rules: { 'no-restricted-globals': 'off' } },
  {
    // The router's matching and history are plain TypeScript; React comes in with lib/router/react.tsx.
    files: ['apps/web/src/lib/router/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react/*', 'react-dom', 'react-dom/*'],
              message: 'Only lib/router/react.tsx binds the router to React.',
            },
          ],
        },
      ],
    },
  },
  {
    // lib/router.tsx is the router's one entry; its parts in lib/router/ are reached through it.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/lib/router/*'], message: 'Import the router from lib/router.tsx, its one entry.' }],
        },
      ],
    },
  },
  {
    // The browser carries no schema library (docs/decisions/0138-no-zod-in-the-browser.md): outside the
    // admin area the web app takes only endpoints, config defaults and plain helpers from the
    // contract at run time, and types from the rest.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/features/admin/**', 'apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/test/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'zod', message: 'The web app does not parse with zod; the server validates.' },
            {
              name: '@mui/material',
              importNames: ['Tooltip'],
              message:
                'Tooltips are components/IconTooltip.tsx (portal-spec §9: on top, 275 px wide, the primary colour).',
            },
            {
              name: '@mui/material/Tooltip',
              message:
                'Tooltips are components/IconTooltip.tsx (portal-spec §9: on top, 275 px wide, the primary colour).',
            },
          ],
          patterns: [
            {
              group: [
                '@vitrine/contract/*',
                '!@vitrine/contract/endpoints',
                '!@vitrine/contract/config-defaults',
                '!@vitrine/contract/at-signs',
                '!@vitrine/contract/version',
                '!@vitrine/contract/translations',
                '!@vitrine/contract/html-policy',
                '!@vitrine/contract/field-format',
                '!@vitrine/contract/paths',
                '!@vitrine/contract/languages',
                '!@vitrine/contract/boot',
                '!@vitrine/contract/markup',
              ],
              allowTypeImports: true,
              message:
                'Contract schemas stay out of the browser: import calls from @vitrine/contract/endpoints, defaults from config-defaults, the HTML policy from html-policy, value formatting from field-format, types with `import type`.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    ignores: ['apps/server/src/http/errors.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='DomainError']",
          message: 'Use the error factories of http/errors.ts (notFound, validation, forbidden, …).',
        },
      ],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'apps/server/test/**', 'e2e/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    // Backups read and write tar only through adapters/tar.ts, which keeps the checks a restore relies on.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/adapters/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'tar-stream', message: 'Read and write tar archives through adapters/tar.ts.' }] },
      ],
    },
  },
  {
    // One `test` for every journey: its worker fixture starts the portal on the object store, and
    // files of one set of fixtures keep their order and share a worker.
    files: ['e2e/journeys/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test', 'expect'],
              message: 'Journeys take test and expect from e2e/support/journey.ts.',
            },
          ],
        },
      ],
    },
  },
);
