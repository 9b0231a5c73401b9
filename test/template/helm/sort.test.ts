// Hooks as helm/helm v3.19.2's releaseutil.SortManifests records them (manifest_sorter_test.go's concerns):
// events, weight, delete policies; unknown hook events skipped; hooks sorted by kind, not by weight.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sortManifests } from '../../../src/template/helm/sort.ts';

const doc = (kind: string, name: string, annotations: Record<string, string>): string =>
  `apiVersion: v1\nkind: ${kind}\nmetadata:\n  name: ${name}\n  annotations:\n${Object.entries(annotations).map(([k, v]) => `    ${k}: "${v}"`).join('\n')}`;

test('hooks keep events, weight and policies, and sort by kind', () => {
  const files = new Map([
    ['c/templates/hooks.yaml', [
      doc('Job', 'migrate', { 'helm.sh/hook': 'pre-install, Pre-Upgrade', 'helm.sh/hook-weight': '-5', 'helm.sh/hook-delete-policy': 'hook-succeeded,before-hook-creation' }),
      doc('ConfigMap', 'first', { 'helm.sh/hook': 'post-install', 'helm.sh/hook-weight': '10' }),
      doc('Pod', 'smoke', { 'helm.sh/hook': 'test-success', 'helm.sh/hook-weight': 'high', 'helm.sh/hook-output-log-policy': 'hook-failed' }),
      doc('Secret', 'odd', { 'helm.sh/hook': 'pre-install,sometime' }),
      doc('ServiceAccount', 'plain', { other: 'x' }),
    ].join('\n---\n')],
  ]);
  const { hooks, manifests } = sortManifests(files);
  assert.deepEqual(manifests.map((m) => m.kind), ['ServiceAccount']);
  assert.deepEqual(hooks.map((h) => [h.kind, h.hookName, h.events, h.weight, h.deletePolicies, h.outputLogPolicies]), [
    ['ConfigMap', 'first', ['post-install'], 10, [], []],
    ['Pod', 'smoke', ['test'], 0, [], ['hook-failed']],
    ['Job', 'migrate', ['pre-install', 'pre-upgrade'], -5, ['hook-succeeded', 'before-hook-creation'], []],
  ]);
});
