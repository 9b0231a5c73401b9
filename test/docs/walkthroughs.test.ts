// docs/first-blueprint.md and docs/troubleshooting.md as a user runs them: every ```sh block through bash, with the
// real kubectl and bin/bosun.js, against a server with the Landscaper controllers (as `bosun up` runs them), in a
// directory whose .bosun/kubeconfig is that server's. Only starting Bosun is left out (the test started it).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { bosunFamilies } from '../../src/cli/families.ts';
import { runControllers } from '../../src/cli/commands/controllers.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { NotFoundError } from '../../src/client/errors.ts';
import { loadBosunCrds } from '../../src/crds/index.ts';
import type { DataObject } from '../../src/landscaper/api/data-object.ts';
import type { Installation } from '../../src/landscaper/api/installation.ts';
import { dataObjectsResource, installationsResource } from '../../src/landscaper/api/resources.ts';
import { eventually, startTestServer } from '../helpers/api-server.ts';
import { runnable, shellBlocks, shellIn } from './shell-blocks.ts';

test('docs/first-blueprint.md and docs/troubleshooting.md: every command runs as written', { timeout: 120_000 }, async () => {
  const live = await startTestServer({ crds: loadBosunCrds() });
  const client = createKubeClient({ kubeconfigPath: live.kubeconfigFile });
  const mgr = await runControllers(
    { kubeconfigContent: live.kubeconfig, leaderElect: false, leaderElectionId: 'bosun-controllers', metricsPort: 0, metricsBindAddress: '127.0.0.1', logLevel: 'silent', controllers: ['landscaper'] },
    bosunFamilies,
  );
  try {
    const dir = mkdtempSync(join(tmpdir(), 'bosun-docs-'));
    mkdirSync(join(dir, '.bosun'));
    copyFileSync(live.kubeconfigFile, join(dir, '.bosun', 'kubeconfig'));
    const sh = shellIn(dir, join(dir, '.bosun', 'kubeconfig'));
    const inst = () => client.get<Installation>(installationsResource, 'first', { namespace: 'default' });
    const exported = async () => (await client.get<DataObject>(dataObjectsResource, 'first-message', { namespace: 'default' }).catch(() => undefined))?.data;
    const finishedJob = async (notJob?: string) => {
      const i = await inst();
      return i.status?.jobID !== notJob && i.status?.jobID === i.status?.jobIDFinished && i.metadata.annotations?.['landscaper.gardener.cloud/operation'] === undefined ? i : undefined;
    };

    const [start, target, apply, watch, change, changed, cleanup, ...rest] = shellBlocks('docs/first-blueprint.md');
    assert.equal(rest.length, 0, 'the guide has seven command blocks');
    await sh.run(runnable(start!));
    await sh.run(target!);
    await sh.run(apply!);
    const first = await eventually(() => finishedJob(), 30_000, 'the first job');
    assert.equal(first.status?.phase, 'Succeeded', first.status?.lastError?.message);
    const watched = await sh.run(runnable(watch!));
    assert.match(watched, /\[Succeeded\]\s+Installation default\/first/);
    assert.match(watched, /Hello, first blueprintHello, first blueprint/, 'the ConfigMap and the export');
    assert.match(watched, /JobStarted/);
    assert.match(watched, /Succeeded/);
    await sh.run(change!);
    await eventually(() => finishedJob(first.status!.jobID), 30_000, 'the second job');
    assert.equal(await sh.run(changed!), 'Hello again');

    // Troubleshooting on the same installation: everything but the deletions, then the guide's clean-up.
    const trouble = shellBlocks('docs/troubleshooting.md').map(runnable);
    const deleting = trouble.filter((b) => /kubectl (delete|patch)/.test(b));
    assert.equal(deleting.length, 2, 'delete-without-uninstall and the finalizer removal');
    for (const block of trouble.filter((b) => !deleting.includes(b))) await sh.run(block);
    await sh.run(cleanup!);
    await assert.rejects(inst(), NotFoundError);
    assert.equal(await exported(), undefined, 'the export went with the installation');

    // The deletion blocks on an installation of their own: the finalizer patch as a server-side dry run
    // (it would skip the clean-up), then delete-without-uninstall, which completes.
    await sh.run(target!);
    await sh.run(apply!);
    await eventually(() => finishedJob(), 30_000, 'the job before the deletion');
    const [withoutUninstall, finalizers] = deleting;
    await sh.run(finalizers!.replace('kubectl patch', 'kubectl patch --dry-run=server'));
    await sh.run(withoutUninstall!);
    await assert.rejects(inst(), NotFoundError);
  } finally {
    await mgr.stop();
    await client.close();
    await live.close();
  }
});
