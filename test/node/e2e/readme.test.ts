// The README's "point kubectl at it" block as a user runs it after `npm start` (= `bosun up`): against a real
// `bosun up` with its node agent, from a directory whose .bosun is that bosun up's data dir. The README's two
// set-up commands themselves are what CI runs (`.ci/run`: npm ci && npm test; npm start is bosun up).
import assert from 'node:assert/strict';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { root, runnable, shellBlocks, shellIn } from '../../docs/shell-blocks.ts';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

let up: BosunUp;
before(async () => {
  up = await startBosunUp();
});
after(async () => {
  await up.close();
});

test('README.md: the kubectl block runs as written against bosun up', { timeout: 120_000 }, async () => {
  const blocks = shellBlocks('README.md');
  assert.deepEqual(blocks.slice(0, 2), ['npm ci && npm start\n', 'npm ci && npm test\n'], 'the two set-up commands');
  const dir = mkdtempSync(join(tmpdir(), 'bosun-readme-'));
  symlinkSync(up.dataDir, join(dir, '.bosun'));
  symlinkSync(join(root, 'examples'), join(dir, 'examples'));
  const out = await shellIn(dir, join(dir, '.bosun', 'kubeconfig')).run(runnable(blocks[2] ?? ''));
  assert.match(out, /^default\s+Active/m, 'kubectl get namespaces');
  assert.match(out, /installation\.landscaper\.gardener\.cloud\/chain-a created/);
  assert.match(out, /job\.batch\/hello condition met\nhello from a pod\n$/);
});
