// Upstream's example Disruptions (test/chaos/upstream/README.md): each is judged by the pure validation with
// safemode off (upstream's chart) and on (upstream's flag default), and goes through the admission webhooks of
// the embedded API server with real kubectl, accepted or refused with the expected message.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parse } from 'yaml';
import type { Disruption } from '../../src/chaos/api/types.ts';
import { CHART_CHAOS_CONFIG, chaosConfig, type ChaosConfig } from '../../src/chaos/config.ts';
import { formatSpecError, validateCreate } from '../../src/chaos/validation/index.ts';
import { startChaosWebhooks, type ChaosWebhookHarness } from './webhook-harness.ts';

const DIR = join(import.meta.dirname, 'upstream', 'examples');
const ENVIRONMENT = new Set(['namespace.yaml']);
const examples = readdirSync(DIR).filter((f) => f.endsWith('.yaml') && !ENVIRONMENT.has(f)).sort();

const NOT_SUPPORTED = 'is not supported by this injector';
const NO_CLOUD = "spec.network.cloud: cloud managed services are not supported by this controller: it does not fetch the cloud providers' IP ranges";
const NO_FILTER = 'spec.network: the specified disruption either contains no Host or Service filters. This will result in all network traffic being affected.';

/** Refused as Bosun ships the family (upstream's chart values: safemode off, the handler on): the first message. */
const refused: Record<string, string> = {
  'complete.yaml': 'spec.containerFailure: container failure disruptions are not compatible with other disruption kinds',
  'disk_failure.yaml': `spec.diskFailure: disk-failure ${NOT_SUPPORTED}`,
  'grpc.yaml': `spec.grpc: grpc-disruption ${NOT_SUPPORTED}`,
  'grpc_error.yaml': `spec.grpc: grpc-disruption ${NOT_SUPPORTED}`,
  'grpc_override.yaml': `spec.grpc: grpc-disruption ${NOT_SUPPORTED}`,
  'network_cloud.yaml': NO_CLOUD,
  'network_cloud_s3.yaml': NO_CLOUD,
};
const ON_INIT_WITHOUT_HANDLER = 'spec.onInit: the chaos handler is disabled but the disruption onInit field is set to true';

/** Also caught with safemode on: network disruptions that filter nothing. */
const unfiltered = [
  'advanced_selector.yaml', 'annotation_filter.yaml', 'containers_targeting.yaml', 'network_bandwidth_limitation.yaml', 'network_cloud.yaml', 'network_cloud_s3.yaml',
  'network_corrupt.yaml', 'network_delay.yaml', 'network_delay_node.yaml', 'network_drop.yaml', 'network_duplication.yaml', 'network_filter_http.yaml', 'pulse.yaml',
  'on_init.yaml', 'reporting_network_drop.yaml', 'safemode_environment.yaml', 'slack_reporting_network_drop.yaml', 'static_targeting.yaml', 'timed_disruption.yaml', 'triggers.yaml',
];

const load = (file: string) => parse(readFileSync(join(DIR, file), 'utf8')) as Disruption;
const judge = (file: string, config: ChaosConfig) => validateCreate(load(file), { config, now: new Date('2020-01-01T00:00:00Z') }).errors.map(formatSpecError);

test('the fixtures are the upstream examples the README lists', () => {
  assert.equal(examples.length, 48);
  for (const file of [...Object.keys(refused), ...unfiltered]) assert.ok(examples.includes(file), file);
});

test('pure validation as Bosun ships it (upstream\'s chart values): all but the refused ones are valid', () => {
  for (const file of examples) {
    const errors = judge(file, CHART_CHAOS_CONFIG);
    const expected = refused[file];
    if (expected === undefined) assert.deepEqual(errors, [], file);
    else assert.ok(errors[0]?.startsWith(expected), `${file}: ${errors.join('; ')}`);
  }
  assert.ok(judge('on_init.yaml', chaosConfig({ handlerEnabled: false }))[0]?.startsWith(ON_INIT_WITHOUT_HANDLER), 'onInit needs the handler');
});

test('pure validation, safemode on: the network examples that filter nothing are caught as well', () => {
  const on = chaosConfig({ handlerEnabled: true });
  for (const file of examples.filter((f) => refused[f] === undefined)) {
    assert.deepEqual(judge(file, on), unfiltered.includes(file) ? [NO_FILTER] : [], file);
  }
});

let h: ChaosWebhookHarness;

before(async () => {
  h = await startChaosWebhooks(CHART_CHAOS_CONFIG);
  const env = await h.kubectl(['apply', '-f', join(DIR, 'namespace.yaml')]);
  assert.equal(env.code, 0, env.stderr);
});

after(async () => {
  await h.stop();
});

/**
 * Through the API server: complete.yaml writes service ports as integers, which the CRD schema refuses before any
 * webhook (upstream's schema too); the embedded API server serves no Services, so the one a network disruption
 * names does not exist there.
 */
const refusedByTheWebhook: Record<string, string> = {
  ...refused,
  'complete.yaml': 'spec.network.services[1].ports[0] in body must be of type object: "integer"',
  'network_filter_service.yaml': 'spec.network.services[0]: the service specified in the network disruption (chaos-demo/demo) does not exist',
};

test('through the webhooks with kubectl: accepted, or refused with the expected message', { timeout: 180_000 }, async () => {
  for (const file of examples) {
    const res = await h.kubectl(['create', '--dry-run=server', '-f', join(DIR, file)]);
    const expected = refusedByTheWebhook[file];
    if (expected === undefined) assert.equal(res.code, 0, `${file}: ${res.stderr}`);
    else {
      assert.notEqual(res.code, 0, file);
      assert.ok(res.stderr.includes(expected), `${file}: ${res.stderr}`);
    }
  }
});
