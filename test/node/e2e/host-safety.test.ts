// Issue 27, finding 1, through `bosun up` with real kubectl: a root pod in default read the data dir (the
// admin token, the SQLite database and its WAL, with every Secret) when it lay outside /tmp. The data dir is
// now hidden from every pod, and root in an untrusted pod is nobody on the host.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

describe('bosun up hides its data dir from pods', () => {
  let up: BosunUp;
  before(async () => {
    // Outside /tmp, which every container has its own of.
    up = await startBosunUp([], {}, '/var/lib');
  });
  after(async () => {
    await up.close();
  });

  test('a runAsUser 0 pod in default sees an empty data dir and reads no token, no database', async () => {
    const script = `ls -A ${up.dataDir} | wc -l; cat ${up.dataDir}/token 2>/dev/null || echo token-unreadable; cat ${up.dataDir}/bosun.db* 2>/dev/null | wc -c`;
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'peek' }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', script], securityContext: { runAsUser: 0 } }] } };
    await up.ok(['apply', '-f', '-'], JSON.stringify(pod));
    await up.ok(['wait', '--for=jsonpath={.status.phase}=Succeeded', 'pod/peek', '--timeout=60s']);
    assert.equal(await up.ok(['logs', 'peek']), '0\ntoken-unreadable\n0\n');
  });
});
