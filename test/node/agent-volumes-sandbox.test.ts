// Volumes as a container sees them: a real sandboxed process (root needed, as for the sandbox tests) running as
// an unprivileged user with a pod fsGroup reads configMap and secret files through kubelet's symlink layout, a
// subPath file, and writes to an emptyDir and a claim.
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { materialiseVolumes, removePodVolumes, volumeBindings } from '../../src/node/agent/pod-volumes.ts';
import { CLAIMS, CONFIGMAPS, SECRETS, configMap, openPodFixture, secret, type PodFixture } from './agent-pod-fixture.ts';
import { logContents, openSandboxHarness, type SandboxHarness } from './harness.ts';

let fixture: PodFixture;
let h: SandboxHarness;
before(async () => {
  [fixture, h] = await Promise.all([openPodFixture(), openSandboxHarness()]);
  await fixture.create(CONFIGMAPS, configMap('web', { 'app.yaml': 'port: 8080\n' }));
  await fixture.create(SECRETS, secret('web-creds', { token: 'abc123' }));
  await fixture.create(CLAIMS, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'ws' } });
});
after(async () => {
  await h.close();
  await fixture.close();
});

test('a container user reads configMap, secret and subPath files and writes to emptyDir and claim volumes', async () => {
  const fsGroup = 4321;
  const context = fixture.context({ spec: { securityContext: { fsGroup } } });
  const volumes = await materialiseVolumes(context, [
    { name: 'config', configMap: { name: 'web' } },
    { name: 'creds', secret: { secretName: 'web-creds', defaultMode: 0o400 } },
    { name: 'scratch', emptyDir: { medium: 'Memory', sizeLimit: '4Mi' } },
    { name: 'workspace', persistentVolumeClaim: { claimName: 'ws' } },
  ]);
  const volumeMounts = await volumeBindings(
    'main',
    [
      { name: 'config', mountPath: '/etc/app' },
      { name: 'config', mountPath: '/etc/app.yaml', subPath: 'app.yaml' },
      { name: 'creds', mountPath: '/var/run/creds' },
      { name: 'scratch', mountPath: '/scratch' },
      { name: 'workspace', mountPath: '/ws' },
    ],
    volumes,
    new Map(),
  );
  const script = [
    'cat /etc/app/app.yaml',
    'cat /etc/app.yaml',
    'cat /var/run/creds/token; echo',
    'touch /etc/app/new 2>/dev/null || echo config-read-only',
    'echo s > /scratch/out && stat -c %g /scratch/out',
    'echo built > /ws/result && echo ws-ok',
  ].join('; ');
  const request = h.request('volumes', { name: 'main', argv: ['sh', '-c', script], securityContext: { runAsUser: 1000 }, volumeMounts }, { supplementalGroups: [fsGroup] });
  const handle = await h.sandbox.start(request);
  const exit = await handle.exited;
  const lines = await logContents(request.logPath);
  assert.equal(exit.reason, 'Completed', lines.join('\n'));
  assert.deepEqual(lines, ['port: 8080', 'port: 8080', 'abc123', 'config-read-only', String(fsGroup), 'ws-ok']);
  const claim = volumes.get('workspace')!.hostPath;
  assert.equal(await readFile(join(claim, 'result'), 'utf8'), 'built\n');

  await removePodVolumes(context.podDir);
  await assert.rejects(stat(join(context.podDir, 'volumes')), { code: 'ENOENT' });
  assert.equal(await readFile(join(claim, 'result'), 'utf8'), 'built\n');
});
