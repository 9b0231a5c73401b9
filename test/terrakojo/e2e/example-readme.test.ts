// examples/terrakojo/README.md as a newcomer follows it: its first command starts the GitHub test server (run here
// as written, in the background), its second `bosun up` with the environment it sets; every other line runs
// through bash in a directory of the user's, `kubectl get` lines read again until they print what the README says.
// The README's ports (3001, 8080) become free ones.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { exited, freePort, startBosun, startInBackground } from '../../helpers/bosun-process.ts';
import { readmeLines, root, runLine, shellBlocks, shellIn, startsBosun } from '../../docs/shell-blocks.ts';
import { expectInDashboard } from '../../dashboard/dashboard-check.ts';

const README = 'examples/terrakojo/README.md';
const START_GITHUB = /^npm run github-test-server\b/;

test('examples/terrakojo/README.md: every command runs as written', { timeout: 300_000 }, async () => {
  const [ghPort, hookPort, apiPort] = [await freePort(), await freePort(), await freePort()];
  const ports = (text: string): string => text.replaceAll('3001', String(ghPort)).replaceAll('8080', String(hookPort));
  const blocks = shellBlocks(README).map(ports);
  const commands = blocks.join('\n').replace(/\\\n\s*/g, '').split('\n').map((l) => l.replace(/\s+#.*$/, '').trim());
  const startGitHub = commands.find((l) => START_GITHUB.test(l));
  const startUp = commands.find(startsBosun);
  assert.ok(startGitHub && startUp, 'the README starts the GitHub test server and bosun up');

  const dir = mkdtempSync(join(tmpdir(), 'bosun-example-'));
  symlinkSync(join(root, 'examples'), join(dir, 'examples'));
  mkdirSync(join(dir, '.bosun'));
  const github = await startInBackground(startGitHub, 'GitHub test server ready', root);
  let bosun: ChildProcess | undefined;
  try {
    const env = Object.fromEntries([...startUp.matchAll(/(?:^|\s)([A-Z_]+)=(\S*)/g)].map((m) => [m[1]!, m[2]!]));
    bosun = await startBosun(join(dir, '.bosun'), apiPort, ['--webhook-server-port', String(hookPort)], env);
    const kubeconfig = join(dir, '.bosun', 'kubeconfig');
    const sh = shellIn(dir, kubeconfig);
    await sh.run('kubectl wait --for=condition=Ready node --all --timeout=60s');
    const lines = readmeLines(README).map(ports).filter((l) => !START_GITHUB.test(l));
    assert.ok(lines.length > 5, 'the README has commands');
    for (const line of lines) {
      // Before the clean-up: the web dashboard shows the walk-through's Repository with its branches and workflows.
      if (line.startsWith('kubectl delete -f examples/terrakojo')) {
        await expectInDashboard(kubeconfig, 'terrakojo', 'default', ['li[data-id="Repository/default/infra"]', 'li[data-id^="Branch/default/"]', 'li[data-id^="Workflow/default/"][data-state="succeeded"]', 'li[data-id^="Workflow/default/"][data-state="failed"]'], 'dashboard-terrakojo');
      }
      await runLine(sh, line);
    }
  } finally {
    if (bosun) {
      bosun.kill('SIGTERM');
      await exited(bosun);
    }
    process.kill(-github.pid!, 'SIGTERM');
    await exited(github);
    rmSync(dir, { recursive: true, force: true });
  }
});
