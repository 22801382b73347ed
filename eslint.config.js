import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/*
 * A feature uses another only through that feature's service (docs/ARCHITECTURE.md): a value import of
 * another feature's repository (`../<b>/*.repository.ts` from a feature's folder, `../../<b>/…` from a
 * subfolder) is an error. Type-only imports stay allowed: a row type such as ClientRow is a shape, not an
 * access path; it is erased at build, runs no SQL and cannot form a load-order cycle, so the owning
 * service still decides every read and write.
 */
const otherFeatureRepository = {
  group: ['../*/**/*.repository.ts', '../../*/**/*.repository.ts'],
  allowTypeImports: true,
  message: "A feature uses another only through its service: call the owning feature's service.",
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'e2e/artifacts/**',
      'bench/results/**',
      'bench/.cache/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, 'react-hooks/set-state-in-effect': 'off' },
  },
  {
    // Tests arrange state directly, so they may reach any repository.
    files: ['apps/server/src/features/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [otherFeatureRepository] }] },
  },
  {
    // The server's layers (docs/ARCHITECTURE.md): routes validate, authorize and call services; services
    // decide and call repositories; repositories hold the only SQL and call nothing above them.
    files: ['apps/server/src/**/*.routes.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/*.repository.ts', '**/db/database.ts'],
              allowTypeImports: true,
              message: 'Routes call services; only services use repositories and the database.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.service.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/*.routes.ts'], message: 'Services never call routes: routes call services.' },
            otherFeatureRepository,
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.repository.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/*.service.ts', '**/*.routes.ts'],
              allowTypeImports: true,
              message: 'Repositories hold SQL only: services call them, never the other way round.',
            },
            otherFeatureRepository,
          ],
        },
      ],
    },
  },
  {
    // The web app talks to the server only through HTTP and the contracts package.
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/apps/server/**', '@opp/server*'] }] },
  },
  {
    // The public pages' code: the contracts index brings zod and every schema (about 30 KB gzip and, on
    // a phone, 170 ms of script before a record page answers), so values come from its zod-free modules.
    files: [
      'apps/web/src/features/{comparables,contacts-public,municipalities,parcels,properties,search}/**/*.{ts,tsx}',
      'apps/web/src/{components,hooks,lib,utils}/**/*.{ts,tsx}',
    ],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@opp/contracts',
              allowTypeImports: true,
              message:
                'Public pages import values from zod-free modules (@opp/contracts/addresses, /abutter-distance, …).',
            },
          ],
        },
      ],
    },
  },
);
