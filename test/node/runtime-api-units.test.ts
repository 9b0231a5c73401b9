// The node runtime API's pure parts: the chaos-injector image mapping, who is told the socket, the socket's
// default path, and a container's cgroups by controller.
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { test } from 'node:test';
import { NODE_RUNTIME_SOCKET_ENV } from '../../src/client/node-runtime/protocol.ts';
import { resolveArgv } from '../../src/node/agent/container-argv.ts';
import { runtimeSocketEnv } from '../../src/node/agent/pods/container-spec.ts';
import type { Pod } from '../../src/apimachinery/api/index.ts';
import { cgroupsByController } from '../../src/node/runtime-api/runtime-container.ts';
import { defaultRuntimeSocketPath } from '../../src/node/runtime-api/socket-path.ts';
import { bin } from '../helpers/bosun-process.ts';

test('upstream\'s chaos-injector image runs `bosun inject` of this install, the pod\'s args following', async () => {
  for (const image of ['datadog/chaos-injector:13.4.0', 'docker.io/datadog/chaos-injector', 'chaos-injector@sha256:abc']) {
    const argv = resolveArgv({ name: 'injector', image, args: ['cpu-pressure', '--count', '50%'] }, new Map());
    assert.deepEqual(argv, [process.execPath, bin, 'inject', 'cpu-pressure', '--count', '50%']);
  }
  await access(bin);
});

test('only privileged containers of trusted namespaces are told the socket', () => {
  const policy = { trustedNamespaces: ['chaos-engineering'], imageMap: {}, runtimeSocketPath: '/run/bosun/runtime-0.sock' };
  const pod = (namespace: string): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace }, spec: { containers: [] } });
  const privileged = { name: 'c', securityContext: { privileged: true } };
  assert.deepEqual(runtimeSocketEnv(pod('chaos-engineering'), privileged, policy), [{ name: NODE_RUNTIME_SOCKET_ENV, value: '/run/bosun/runtime-0.sock' }]);
  assert.deepEqual(runtimeSocketEnv(pod('default'), privileged, policy), []);
  assert.deepEqual(runtimeSocketEnv(pod('chaos-engineering'), { name: 'c' }, policy), []);
  assert.deepEqual(runtimeSocketEnv(pod('chaos-engineering'), privileged, { ...policy, runtimeSocketPath: undefined }), []);
});

test('the default socket path hashes the data dir', () => {
  assert.match(defaultRuntimeSocketPath('/var/lib/bosun'), /^\/run\/bosun\/runtime-[0-9a-f]{12}\.sock$/);
  assert.notEqual(defaultRuntimeSocketPath('/a'), defaultRuntimeSocketPath('/b'));
});

test('cgroups by controller: each v1 controller names its hierarchy\'s directory; v2 has one', () => {
  const v1 = {
    version: 1 as const,
    hierarchies: [
      { mountPoint: '/sys/fs/cgroup/cpu,cpuacct', controllers: ['cpu', 'cpuacct'], root: '/sys/fs/cgroup/cpu,cpuacct/bosun' },
      { mountPoint: '/sys/fs/cgroup/memory', controllers: ['memory'], root: '/sys/fs/cgroup/memory/bosun' },
    ],
  };
  assert.deepEqual(cgroupsByController(v1, ['/sys/fs/cgroup/cpu,cpuacct/bosun/podx/c', '/sys/fs/cgroup/memory/bosun/podx/c']), {
    cpu: '/sys/fs/cgroup/cpu,cpuacct/bosun/podx/c',
    cpuacct: '/sys/fs/cgroup/cpu,cpuacct/bosun/podx/c',
    memory: '/sys/fs/cgroup/memory/bosun/podx/c',
  });
  const v2 = { version: 2 as const, hierarchies: [{ mountPoint: '/sys/fs/cgroup', controllers: ['cpu', 'memory'], root: '/sys/fs/cgroup/bosun' }] };
  assert.deepEqual(cgroupsByController(v2, ['/sys/fs/cgroup/bosun/podx/c']), { unified: '/sys/fs/cgroup/bosun/podx/c' });
});
