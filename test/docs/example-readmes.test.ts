// Every example README as a user runs it: each ```sh line through bash, in a directory with the repository's
// examples/ and a .bosun/kubeconfig of a server running the Landscaper controllers (as `bosun up` runs them).
// A `kubectl get` line is read again until it succeeds, as a user reads again while a job runs; a `-o jsonpath`
// line with a trailing `# text` comment must print that text. Only starting Bosun is left out.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runControllers } from '../../src/cli/commands/controllers.ts';
import { bosunFamilies } from '../../src/cli/families.ts';
import { loadBosunCrds } from '../../src/crds/index.ts';
import type { Manager } from '../../src/runtime/manager.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { readmeLines, root, runLine, shellIn } from './shell-blocks.ts';

// The container and helm-chart examples run pods, which this node-less server cannot: their e2e tests
// (test/landscaper/container/e2e.test.ts, test/landscaper/helm/e2e.test.ts) run their READMEs on bosun up.
const ON_A_NODE = ['container', 'helm-chart'];
const examples = readdirSync(join(root, 'examples', 'landscaper'))
  .filter((example) => !ON_A_NODE.includes(example))
  .sort();

let live: TestServer;
let mgr: Manager;
before(async () => {
  live = await startTestServer({ crds: loadBosunCrds() });
  mgr = await runControllers(
    { kubeconfigContent: live.kubeconfig, leaderElect: false, leaderElectionId: 'bosun-controllers', metricsPort: 0, metricsBindAddress: '127.0.0.1', logLevel: 'silent', controllers: ['landscaper'] },
    bosunFamilies,
  );
});
after(async () => {
  await mgr.stop();
  await live.close();
});

for (const example of examples) {
  test(`examples/landscaper/${example}/README.md: every command runs as written`, { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bosun-example-'));
    mkdirSync(join(dir, '.bosun'));
    copyFileSync(live.kubeconfigFile, join(dir, '.bosun', 'kubeconfig'));
    symlinkSync(join(root, 'examples'), join(dir, 'examples'));
    const sh = shellIn(dir, join(dir, '.bosun', 'kubeconfig'));
    const lines = readmeLines(`examples/landscaper/${example}/README.md`);
    assert.ok(lines.length > 0, 'the README has commands');
    for (const line of lines) await runLine(sh, line);
  });
}
