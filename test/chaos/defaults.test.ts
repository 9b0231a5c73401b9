// The mutating webhook's defaults as a pure function: the configured duration when none is given (written as Go
// prints it), level pod, and on create the creator's UserInfo as upstream's annotation, replacing any claim.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { USER_INFO_ANNOTATION } from '../../src/chaos/api/constants.ts';
import type { Disruption } from '../../src/chaos/api/types.ts';
import { chaosConfig, DEFAULT_CHAOS_CONFIG } from '../../src/chaos/config.ts';
import { defaultDisruption, readUserInfo } from '../../src/chaos/validation/index.ts';

const d = (spec: Partial<Disruption['spec']> = {}, annotations?: Record<string, string>): Disruption => ({
  metadata: { name: 'dis', namespace: 'shop', ...(annotations ? { annotations } : {}) },
  spec: { count: 1, selector: { app: 'web' }, cpuPressure: {}, ...spec },
});

test('no duration gets the configured default, as Go prints it (upstream flag default 1h)', () => {
  assert.equal(defaultDisruption(d(), { config: DEFAULT_CHAOS_CONFIG }).spec.duration, '1h0m0s');
  assert.equal(defaultDisruption(d({ duration: '' }), { config: chaosConfig({ defaultDurationMs: 300_000 }) }).spec.duration, '5m0s');
  assert.equal(defaultDisruption(d({ duration: '0s' }), { config: chaosConfig({ defaultDurationMs: 300_000 }) }).spec.duration, '5m0s');
});

test('a given duration is kept as written; an unparsable one is left for validation', () => {
  assert.equal(defaultDisruption(d({ duration: '90s' }), { config: DEFAULT_CHAOS_CONFIG }).spec.duration, '90s');
  assert.equal(defaultDisruption(d({ duration: 'soon' }), { config: DEFAULT_CHAOS_CONFIG }).spec.duration, 'soon');
});

test('level defaults to pod; node stays node', () => {
  assert.equal(defaultDisruption(d(), { config: DEFAULT_CHAOS_CONFIG }).spec.level, 'pod');
  assert.equal(defaultDisruption(d({ level: 'node' }), { config: DEFAULT_CHAOS_CONFIG }).spec.level, 'node');
});

test('the creator is recorded as upstream\'s UserInfo JSON, replacing a claimed one; the input is not changed', () => {
  const claimed = d({}, { [USER_INFO_ANNOTATION]: '{"username":"admin"}', keep: 'me' });
  const out = defaultDisruption(claimed, { config: DEFAULT_CHAOS_CONFIG, creator: { username: 'alice', uid: 'u-1', groups: ['dev', 'system:authenticated'] } });
  assert.equal(out.metadata.annotations?.[USER_INFO_ANNOTATION], '{"username":"alice","uid":"u-1","groups":["dev","system:authenticated"]}');
  assert.deepEqual(readUserInfo(out), { username: 'alice', uid: 'u-1', groups: ['dev', 'system:authenticated'] });
  assert.equal(out.metadata.annotations?.['keep'], 'me');
  assert.equal(claimed.metadata.annotations?.[USER_INFO_ANNOTATION], '{"username":"admin"}');
  assert.equal(claimed.spec.duration, undefined);
});

test('on update: no annotation is added, and a UserInfo the update leaves out is carried over (not changed)', () => {
  assert.equal(defaultDisruption(d(), { config: DEFAULT_CHAOS_CONFIG }).metadata.annotations, undefined);
  const stored = d({}, { [USER_INFO_ANNOTATION]: '{"username":"alice"}' });
  assert.equal(defaultDisruption(d(), { config: DEFAULT_CHAOS_CONFIG, previous: stored }).metadata.annotations?.[USER_INFO_ANNOTATION], '{"username":"alice"}');
  const rewritten = d({}, { [USER_INFO_ANNOTATION]: '{"username":"mallory"}' });
  assert.equal(defaultDisruption(rewritten, { config: DEFAULT_CHAOS_CONFIG, previous: stored }).metadata.annotations?.[USER_INFO_ANNOTATION], '{"username":"mallory"}', 'left for validation to deny');
});
