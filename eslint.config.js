import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
);
