// Type-aware lint: no-floating-promises is the rule a controller most needs (an unawaited promise is a lost error).
// Also the layering of src/: which of Bosun's folders each folder may import.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const FAMILIES = ['landscaper', 'terrakojo', 'chaos', 'node', 'workloads'];

/** For each layer (a folder of src/), the layers it may import besides itself; folders not named are free. */
const LAYERS = {
  apimachinery: [],
  template: [],
  client: ['apimachinery'],
  apiserver: ['apimachinery'],
  runtime: ['client', 'apimachinery'],
  dashboard: ['runtime', 'client', 'apimachinery'],
  ...Object.fromEntries(FAMILIES.map((family) => [family, ['runtime', 'client', 'apimachinery', 'template']])),
};

/** A family reaches the runtime through its public surface only (src/runtime/index.ts), never a file inside it. */
const RUNTIME_SURFACE = (prefix) => ({
  regex: `${prefix}runtime/(?!index\\.ts$)`,
  caseSensitive: true,
  message: 'families import the runtime only through src/runtime/index.ts, its public surface (docs/runtime.md).',
});

/** How deep below its layer a source file may sit and still be checked (test/lint/layering.test.ts sees to it). */
const MAX_LAYER_DEPTH = 8;

/**
 * Bosun imports its own modules by relative path, so a file `depth` folders below src/ reaches another layer
 * through exactly `depth` "../" segments: one no-restricted-imports rule per layer and depth forbids every
 * layer that is not allowed (and anything outside src/).
 */
function layering() {
  const configs = [];
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const rule = (layer, depth) => {
    const exceptions = [layer, ...LAYERS[layer]].map((l) => `${escape(l)}/`).join('|');
    const patterns = [
      {
        regex: `^(?:\\.\\./){${depth}}(?!${exceptions})`,
        caseSensitive: true,
        message: `src/${layer} may import only src/{${[layer, ...LAYERS[layer]].join(',')}} (layering: docs/runtime.md).`,
      },
    ];
    if (FAMILIES.includes(layer)) patterns.push(RUNTIME_SURFACE(`^(?:\\.\\./){${depth}}`));
    return ['error', { patterns }];
  };
  for (const layer of Object.keys(LAYERS)) {
    for (let depth = 1; depth <= MAX_LAYER_DEPTH; depth++) {
      configs.push({ files: [`src/${layer}/${'*/'.repeat(depth - 1)}*.ts`], rules: { 'no-restricted-imports': rule(layer, depth) } });
    }
  }
  return configs;
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.bosun/**', 'test/golden/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's test()/describe() return promises the runner itself awaits.
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  ...layering(),
  // The example family is what newcomers copy: it keeps to the same public surface.
  // The dashboard's page script runs in the browser.
  {
    files: ['src/dashboard/web/*.js'],
    languageOptions: { globals: Object.fromEntries(['document', 'history', 'location', 'EventSource', 'fetch', 'setInterval', 'requestAnimationFrame', 'addEventListener', 'confirm', 'CSS', 'Date', 'JSON', 'Map', 'Set'].map((name) => [name, 'readonly'])) },
  },
  { files: ['examples/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [RUNTIME_SURFACE('^(?:\\.\\./)+src/')] }] } },
);
