// Stopping `bosun up` leaves nothing mounted: a pod's Secret volume is a tmpfs, and after SIGTERM the data dir
// can be removed (issue 24: `rm -rf .bosun` failed with "Device or resource busy").
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { startBosunUp } from './bosun-up.ts';

test('after bosun up stops, no volume of its pods is mounted and its data dir can be removed', async () => {
  const up = await startBosunUp();
  try {
    await up.ok(['create', 'secret', 'generic', 'creds', '--from-literal=password=s3cret']);
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'reader' },
      spec: {
        containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'cat /creds/password; exec sleep 3600'], volumeMounts: [{ name: 'creds', mountPath: '/creds' }] }],
        volumes: [{ name: 'creds', secret: { secretName: 'creds' } }],
      },
    };
    await up.ok(['apply', '-f', '-'], JSON.stringify(pod));
    await up.ok(['wait', '--for=condition=Ready', 'pod/reader', '--timeout=60s']);
    const mounted = () => readFileSync('/proc/self/mountinfo', 'utf8').split('\n').filter((line) => line.includes(up.dataDir));
    assert.ok(mounted().length > 0, 'the Secret volume is a tmpfs under the data dir while the pod runs');
  } finally {
    // close() stops bosun up with SIGTERM and removes the data dir: EBUSY if anything stayed mounted.
    await up.close();
  }
});
