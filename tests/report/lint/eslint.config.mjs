// ESLint's rules for the report page's script (src/report/page/assets/*.js). The page runs the
// files as one classic script, in page_assets.h's kPageScripts order, inside one function
// that common.js opens and run_page.js closes; lint_assets.mjs lints them so joined, as the
// browser sees them, so names shared between the files need no declaring here. The globals
// are the browser's and Chart.js's `Chart`, which the page inlines in a script before it.
import js from '@eslint/js';
import globals from 'globals';

export default [
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'script',
      globals: {...globals.browser, Chart: 'readonly'},
    },
    linterOptions: {reportUnusedDisableDirectives: 'error'},
    rules: {
      'no-shadow': 'error',
      'no-var': 'error',
      'prefer-const': 'error',
      'no-use-before-define': ['error', {functions: false}],
      // `x == null` means null or undefined; every other comparison is strict.
      eqeqeq: ['error', 'always', {null: 'ignore'}],
    },
  },
];
