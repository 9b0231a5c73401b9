// The families Bosun ships, as the CLI derives --controllers, `bosun manifests` and `bosun up`'s CRDs from
// them: selection by name (an unknown or unbuilt family is one clear line and exit 1, before anything
// starts), each family's CRDs against the manifests in crds/.
import assert from 'node:assert/strict';
import { parseAllDocuments } from 'yaml';
import { test } from 'node:test';
import { bosunFamilies, familyCrds, FamilyCrdError, selectFamilies, UnknownFamilyError } from '../../src/cli/families.ts';
import { chaosFamily } from '../../src/chaos/family.ts';
import { crdGroup, loadBosunCrds } from '../../src/crds/index.ts';
import { landscaperFamily } from '../../src/landscaper/family.ts';
import { landscaperWebhookConfiguration } from '../../src/landscaper/webhook/index.ts';
import { terrakojoFamily } from '../../src/terrakojo/family.ts';
import type { Family } from '../../src/runtime/family.ts';
import { bin, runToEnd } from '../helpers/bosun-process.ts';

const family = (name: string, groups: string[], crds: string[]): Family => ({ name, groups, crds, rbac: [], register: () => {} });

/** Runs `bosun ARGS` to its exit; resolves with the code and stderr. */
async function bosun(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const { code, stdout, stderr } = await runToEnd(process.execPath, [bin, ...args]);
  return { code, out: stdout, err: stderr };
}

test('families are selected by name, each once; all of them without names', () => {
  const a = family('a', [], []);
  const b = family('b', [], []);
  assert.deepEqual(selectFamilies(undefined, [a, b]), [a, b]);
  assert.deepEqual(selectFamilies(['b', 'a', 'b'], [a, b]), [b, a]);
  assert.deepEqual(selectFamilies([], [a, b]), []);
  assert.deepEqual(selectFamilies(['landscaper']), [landscaperFamily]);
  assert.deepEqual(bosunFamilies.map((f) => f.name), ['chaos', 'landscaper', 'terrakojo', 'workloads']);
});

test('an embedded-only family (a real cluster has its own) runs by default only on the embedded control plane', () => {
  const a = family('a', [], []);
  const kcm: Family = { ...family('kcm', [], []), embeddedOnly: true };
  assert.deepEqual(selectFamilies(undefined, [a, kcm]), [a], 'a real cluster: not by default');
  assert.deepEqual(selectFamilies(undefined, [a, kcm], { embedded: true }), [a, kcm], 'bosun up: by default');
  assert.deepEqual(selectFamilies(['kcm'], [a, kcm]), [kcm], 'named: anywhere');
  assert.deepEqual(selectFamilies(undefined).map((f) => f.name), ['chaos', 'landscaper', 'terrakojo']);
  assert.deepEqual(selectFamilies(undefined, bosunFamilies, { embedded: true }).map((f) => f.name), ['chaos', 'landscaper', 'terrakojo', 'workloads']);
});

test('an unknown family is refused, naming the available ones', () => {
  const refused = (names: string[], message: string): void => {
    assert.throws(() => selectFamilies(names), (e: unknown) => e instanceof UnknownFamilyError && e.message === message);
  };
  refused(['landscaper', 'nope'], 'unknown controller family "nope" (available: chaos, landscaper, terrakojo, workloads)');
  assert.throws(() => selectFamilies(['a'], []), { message: 'unknown controller family "a" (available: none)' });
});

test("a shipped family's CRDs are every manifest of its groups, sorted by name", () => {
  // A family of built-in kinds (workloads) has no CRDs of its own.
  for (const f of bosunFamilies.filter((x) => x.groups.length > 0)) {
    const ofGroups = loadBosunCrds().filter((crd) => f.groups.includes(crdGroup(crd) ?? ''));
    assert.ok(ofGroups.length > 0, f.name);
    assert.deepEqual(familyCrds([f]), ofGroups, f.name);
  }
});

test('a family naming a CRD crds/ lacks, or one outside its groups, is an error', () => {
  assert.throws(() => familyCrds([family('x', ['landscaper.gardener.cloud'], ['nothings.landscaper.gardener.cloud'])]), (e: unknown) => e instanceof FamilyCrdError && e.message === 'family x: no manifest in crds/ defines nothings.landscaper.gardener.cloud');
  assert.throws(() => familyCrds([family('x', ['example.com'], ['disruptions.chaos.datadoghq.com'])]), (e: unknown) => e instanceof FamilyCrdError && e.message === "family x: disruptions.chaos.datadoghq.com is in group chaos.datadoghq.com, not one of the family's");
});

test("Landscaper's webhook configuration carries the family's name, which pruning selects by", () => {
  assert.equal(landscaperWebhookConfiguration().component, landscaperFamily.name);
});

test('the commands refuse an unknown family or a bad chaos config in one line with exit 1, before anything starts', async () => {
  const manifests = await bosun(['manifests', '--family', 'chaso']);
  assert.deepEqual([manifests.code, manifests.out, manifests.err], [1, '', 'bosun manifests: unknown controller family "chaso" (available: chaos, landscaper, terrakojo, workloads)\n']);
  // No kubeconfig is read: the family is checked first.
  const controllers = await bosun(['controllers', '--kubeconfig', '/nonexistent/kubeconfig', '--controllers', 'chaso']);
  assert.deepEqual([controllers.code, controllers.err], [1, 'bosun controllers: unknown controller family "chaso" (available: chaos, landscaper, terrakojo, workloads)\n']);
  // No server is started: the data dir is never touched.
  const up = await bosun(['up', '--data-dir', '/nonexistent/bosun', '--port', '0', '--controllers', 'landscaper,nope']);
  assert.deepEqual([up.code, up.out, up.err], [1, '', 'bosun up: unknown controller family "nope" (available: chaos, landscaper, terrakojo, workloads)\n']);
  const config = await bosun(['up', '--data-dir', '/nonexistent/bosun', '--port', '0', '--chaos-config', '/nonexistent/chaos.yaml']);
  assert.equal(config.code, 1);
  assert.match(config.err, /^bosun up: --chaos-config \/nonexistent\/chaos.yaml: ENOENT/);
});

test('bosun manifests --family NAME prints that family\'s CRDs (first, then the rest of the install); bosun manifests all of them', async () => {
  const [chaos, landscaper, terrakojo, all] = await Promise.all([bosun(['manifests', '--family', 'chaos']), bosun(['manifests', '--family', 'landscaper']), bosun(['manifests', '--family', 'terrakojo']), bosun(['manifests'])]);
  const names = (out: string): string[] =>
    parseAllDocuments(out)
      .map((doc) => doc.toJS() as { kind?: string; metadata?: { name?: string } } | null)
      .filter((o) => o?.kind === 'CustomResourceDefinition')
      .map((o) => o!.metadata!.name!);
  for (const [one, family] of [[chaos, chaosFamily], [landscaper, landscaperFamily], [terrakojo, terrakojoFamily]] as const) {
    assert.equal(one.code, 0);
    assert.ok(one.out.startsWith('---\napiVersion: apiextensions.k8s.io/v1\n'));
    assert.deepEqual(names(one.out), [...family.crds].sort());
  }
  assert.deepEqual(names(all.out), [...chaosFamily.crds, ...landscaperFamily.crds, ...terrakojoFamily.crds].sort());
});

test('every family that updates a status may also get the object: the status writer reads it again after a conflict', () => {
  const missing: string[] = [];
  for (const f of bosunFamilies) {
    const allowed = (group: string, resource: string, verb: string): boolean =>
      f.rbac.some((rule) => (rule.apiGroups ?? []).includes(group) && (rule.resources ?? []).includes(resource) && (rule.verbs as readonly string[]).some((v) => v === verb || v === '*'));
    for (const rule of f.rbac) {
      if (!(rule.verbs as readonly string[]).includes('update')) continue;
      for (const resource of rule.resources ?? []) {
        if (!resource.endsWith('/status')) continue;
        const object = resource.slice(0, -'/status'.length);
        for (const group of rule.apiGroups ?? []) if (!allowed(group, object, 'get')) missing.push(`${f.name}: get ${group || 'core'}/${object}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});
