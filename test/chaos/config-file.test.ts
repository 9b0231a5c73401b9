// Upstream's controller config file read into a ChaosConfig.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChaosConfigError, chaosConfigFromFile } from '../../src/chaos/config-file.ts';
import { DEFAULT_CHAOS_CONFIG } from '../../src/chaos/config.ts';

test('the e2e config: durations as Go strings, safe mode off, the rest upstream\'s defaults', () => {
  const c = chaosConfigFromFile({
    controller: { finalizerDeletionDelay: '1s', expiredDisruptionGCDelay: '-1m', defaultDuration: '10m', deleteOnly: false, enableSafeguards: false, safeMode: { enable: false } },
  });
  assert.equal(c.finalizerDeletionDelayMs, 1000);
  assert.equal(c.expiredDisruptionGCDelayMs, -60_000);
  assert.equal(c.defaultDurationMs, 600_000);
  assert.equal(c.enableSafeguards, false);
  assert.equal(c.safemode.enable, false);
  assert.equal(c.safemode.namespaceThreshold, 80);
  assert.equal(c.disruptionDeletionTimeoutMs, 15 * 60_000);
  assert.deepEqual(c.injector, DEFAULT_CHAOS_CONFIG.injector);
});

test('the injector section and the chart\'s other controller keys', () => {
  const c = chaosConfigFromFile({
    controller: { metricsSink: 'datadog', disabledDisruptions: ['node-failure'], disruptionDeletionTimeout: '5m', metricsBindAddr: ':8080', notifiers: {} },
    injector: { image: 'chaos-injector:latest', chaosNamespace: 'chaos', serviceAccount: 'inj', labels: { a: 'b' }, networkDisruption: { allowedHosts: ['10.0.0.1;53;udp;;'], dnsPodResolvConf: '/etc/resolv.conf' }, tolerations: [{ operator: 'Exists' }] },
    handler: { enabled: true },
  });
  assert.deepEqual([c.chaosNamespace, c.injector.image, c.injector.serviceAccount, c.injector.metricsSink, c.handlerEnabled], ['chaos', 'chaos-injector:latest', 'inj', 'datadog', true]);
  assert.deepEqual(c.disabledDisruptions, ['node-failure']);
  assert.equal(c.disruptionDeletionTimeoutMs, 300_000);
  assert.deepEqual(c.injector.networkDisruptionAllowedHosts, ['10.0.0.1;53;udp;;']);
  assert.deepEqual(c.injector.tolerations, [{ operator: 'Exists' }]);
});

test('wrong values are errors naming the key', () => {
  assert.throws(() => chaosConfigFromFile({ controller: { finalizerDeletionDelay: 'soon' } }), (e: unknown) => e instanceof ChaosConfigError && /controller\.finalizerDeletionDelay/.test(e.message));
  assert.throws(() => chaosConfigFromFile({ controller: { deleteOnly: 'yes' } }), /controller\.deleteOnly: expected a boolean/);
  assert.throws(() => chaosConfigFromFile({ controller: { disabledDisruptions: ['cpu'] } }), /unknown disruption kind "cpu"/);
  assert.throws(() => chaosConfigFromFile([1]), ChaosConfigError);
});
