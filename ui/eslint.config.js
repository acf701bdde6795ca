// ESLint flat config for the webview: typescript-eslint (type-checked), React hooks rules, and a
// guard that only src/ipc.ts talks to Tauri (tests and the e2e mock backend excepted).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'dist-e2e', 'node_modules', 'test-results', 'src/generated'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@tauri-apps/api/core', message: 'Only src/ipc.ts talks to Tauri.' },
            { name: '@tauri-apps/api/event', message: 'Only src/ipc.ts talks to Tauri.' },
            { name: '@tauri-apps/api', message: 'Only src/ipc.ts talks to Tauri.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/ipc.ts', 'src/**/*.test.{ts,tsx}', 'src/test/**', 'src/mock/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Fake backends reject with plain {code, message} objects, as the Rust side does.
    files: ['src/mock/**', 'src/**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/only-throw-error': 'off' },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'src/test/**'],
    rules: { 'react-refresh/only-export-components': 'off' },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
);
