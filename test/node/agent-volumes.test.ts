// emptyDir volumes: a directory per volume in the pod's directory, bound where each container mounts it.
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { materialiseVolumes, volumeBindings } from '../../src/node/agent/pod-volumes.ts';
import { SandboxSpecError } from '../../src/node/sandbox/errors.ts';

test('emptyDir volumes get a directory in the pod and bind at their mount paths', async () => {
  const podDir = await mkdtemp(join(tmpdir(), 'bosun-agent-volumes-'));
  try {
    const paths = await materialiseVolumes(podDir, [{ name: 'cache', emptyDir: {} }]);
    const hostPath = join(podDir, 'volumes', 'kubernetes.io~empty-dir', 'cache');
    assert.equal(paths.get('cache'), hostPath);
    assert.ok((await stat(hostPath)).isDirectory());
    assert.deepEqual(volumeBindings([{ name: 'cache', mountPath: '/cache', readOnly: true }], paths), [{ hostPath, mountPath: '/cache', readOnly: true }]);
    assert.throws(() => volumeBindings([{ name: 'missing', mountPath: '/m' }], paths), SandboxSpecError);
    await assert.rejects(materialiseVolumes(podDir, [{ name: 'host' }]), SandboxSpecError);
  } finally {
    await rm(podDir, { recursive: true, force: true });
  }
});
