// Issue 20: a host without runc (PATH without it). `bosun up` (--container-runtime auto, the default) runs pods on
// the host sandbox as before; a pod whose image needs runc (no command, an image this node cannot map) waits with
// a message naming the Debian packages; with --container-runtime oci no node agent starts, and bosun up says why.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bin, exited, freePort, startReadyWithOutput } from '../../helpers/bosun-process.ts';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

/** A directory of links to every program of /usr/bin and /usr/sbin but runc: a PATH on which runc is missing. */
function pathWithoutRunc(dir: string): string {
  for (const from of ['/usr/sbin', '/usr/bin']) {
    for (const name of readdirSync(from)) {
      if (name === 'runc') continue;
      try {
        symlinkSync(join(from, name), join(dir, name));
      } catch {
        // In both: the first stays.
      }
    }
  }
  return dir;
}

describe('bosun up on a host without runc', () => {
  let up: BosunUp;
  const programs = mkdtempSync(join(tmpdir(), 'bosun-no-runc-'));
  const env = { PATH: pathWithoutRunc(programs) };

  before(async () => {
    up = await startBosunUp(['--container-runtime', 'auto'], env);
  });
  after(async () => {
    await up?.close();
    rmSync(programs, { recursive: true, force: true });
  });

  test('pods with a command run on the host sandbox as before; an image without one names runc and conmon', async () => {
    await up.ok(['run', 'host', '--image=busybox', '--restart=Never', '--command', '--', 'sh', '-c', 'echo on the host sandbox']);
    await up.ok(['wait', '--for=jsonpath={.status.phase}=Succeeded', 'pod/host', '--timeout=60s']);
    assert.equal(await up.ok(['logs', 'host']), 'on the host sandbox\n');
    assert.match(await up.ok(['get', 'pod', 'host', '-o', 'jsonpath={.status.containerStatuses[0].containerID}']), /^bosun:\/\//);
    await up.ok(['run', 'needs-runc', '--image=example.test/app:1.0', '--restart=Never']);
    await up.ok(['wait', '--for=jsonpath={.status.containerStatuses[0].state.waiting.reason}=CreateContainerError', 'pod/needs-runc', '--timeout=60s']);
    const message = await up.ok(['get', 'pod', 'needs-runc', '-o', 'jsonpath={.status.containerStatuses[0].state.waiting.message}']);
    assert.match(message, /image "example\.test\/app:1\.0" has no known entrypoint on this node, which runs no images; .*install the Debian packages runc and conmon/);
  });

  test('--container-runtime oci starts no node agent and says why, naming the package', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bosun-no-runc-data-'));
    const flags = ['--data-dir', dataDir, '--port', String(await freePort()), '--metrics-port', '0', '--dashboard-port', '0', '--container-runtime', 'oci'];
    const { child, output } = await startReadyWithOutput([bin, 'up', ...flags], 'bosun is ready', env);
    try {
      assert.match(output, /bosun up: node agent not started: --container-runtime oci: runc is not installed: running images needs it \(Debian: apt-get install runc\)\n/);
    } finally {
      child.kill('SIGTERM');
      await exited(child);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
