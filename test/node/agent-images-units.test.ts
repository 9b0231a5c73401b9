// The agent's image rules that need no registry: kubelet's default pull policy, USER against the image's
// /etc/passwd and /etc/group, env over the image's Env, and which runtime runs a container.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runtimeFor } from '../../src/node/agent/container-runtime.ts';
import { mergeEnv } from '../../src/node/agent/oci/image-containers.ts';
import { pullPolicy } from '../../src/node/agent/oci/image-pulls.ts';
import { resolveImageUser } from '../../src/node/agent/oci/image-user.ts';

test('pull policy: Always for :latest or no tag, IfNotPresent for a tag or digest, as written otherwise', () => {
  assert.equal(pullPolicy({ image: 'nginx' }), 'Always');
  assert.equal(pullPolicy({ image: 'nginx:latest' }), 'Always');
  assert.equal(pullPolicy({ image: '127.0.0.1:5000/web' }), 'Always');
  assert.equal(pullPolicy({ image: '127.0.0.1:5000/web:1.0' }), 'IfNotPresent');
  assert.equal(pullPolicy({ image: `nginx@sha256:${'a'.repeat(64)}` }), 'IfNotPresent');
  assert.equal(pullPolicy({ image: 'nginx', imagePullPolicy: 'Never' }), 'Never');
});

test('USER resolves in the image\'s own passwd and group files', async () => {
  const rootfs = mkdtempSync(join(tmpdir(), 'bosun-rootfs-'));
  try {
    mkdirSync(join(rootfs, 'etc'));
    writeFileSync(join(rootfs, 'etc', 'passwd'), 'root:x:0:0::/root:/bin/sh\napp:x:1000:1001::/home/app:/bin/sh\n');
    writeFileSync(join(rootfs, 'etc', 'group'), 'root:x:0:\nstaff:x:50:\n');
    assert.deepEqual(await resolveImageUser(rootfs, undefined), { uid: 0, gid: 0 });
    assert.deepEqual(await resolveImageUser(rootfs, 'app'), { uid: 1000, gid: 1001 });
    assert.deepEqual(await resolveImageUser(rootfs, '1000'), { uid: 1000, gid: 1001 });
    assert.deepEqual(await resolveImageUser(rootfs, '2000'), { uid: 2000, gid: 0 });
    assert.deepEqual(await resolveImageUser(rootfs, 'app:staff'), { uid: 1000, gid: 50 });
    assert.deepEqual(await resolveImageUser(rootfs, '7:8'), { uid: 7, gid: 8 });
    await assert.rejects(resolveImageUser(rootfs, 'nobody'), /unable to find user nobody/);
    await assert.rejects(resolveImageUser(rootfs, 'app:wheel'), /unable to find group wheel/);
  } finally {
    rmSync(rootfs, { recursive: true, force: true });
  }
});

test('env over the image\'s Env by name; PATH defaulted', () => {
  assert.deepEqual(mergeEnv(['A=1', 'B=2'], [{ name: 'B', value: 'x' }]), ['A=1', 'B=x', 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin']);
  assert.deepEqual(mergeEnv(['PATH=/bin'], []), ['PATH=/bin']);
});

test('bosun-host, Bosun\'s own images and host-only nodes use the host sandbox', () => {
  const node = { oci: true, imageMap: {} };
  assert.equal(runtimeFor({ spec: {} }, 'nginx', node), 'oci');
  assert.equal(runtimeFor({ spec: { runtimeClassName: 'bosun-host' } }, 'nginx', node), 'host');
  assert.equal(runtimeFor({ spec: {} }, 'datadog/chaos-injector:latest', node), 'host');
  assert.equal(runtimeFor({ spec: {} }, 'nginx', { oci: false, imageMap: {} }), 'host');
});
