// test/github-server/README.md's shell commands as a user runs them: its first block starts the server (in the
// background, until its ready line), the others talk to its admin API. The README's ports become free ones.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { exited, freePort, runToEnd, startInBackground } from '../helpers/bosun-process.ts';
import { root, shellBlocks } from '../docs/shell-blocks.ts';

test('test/github-server/README.md: its commands run as written', async () => {
  const [apiPort, hookPort] = [await freePort(), await freePort()];
  const blocks = shellBlocks(join('test', 'github-server', 'README.md')).map((b) => b.replaceAll('3001', String(apiPort)).replaceAll('8080', String(hookPort)));
  const [start = '', ...rest] = blocks;
  assert.ok(start.startsWith('npm run github-test-server') && rest.length > 0, 'a start block, then commands');
  const server = await startInBackground(start.replace(/\\\n\s*/g, ''), 'GitHub test server ready', root);
  try {
    for (const block of rest) {
      const run = await runToEnd('bash', ['-c', `set -euo pipefail\n${block}`], { cwd: root });
      assert.equal(run.code, 0, `${block}\n${run.stderr}`);
      // The commit block answers the new commit's SHA, as the README says.
      if (block.includes('/commits')) assert.match(run.stdout, /"sha":"[0-9a-f]{40}"/);
    }
  } finally {
    process.kill(-server.pid!, 'SIGTERM');
    await exited(server);
  }
});
