// Helm-free mode (helmDeployment: false): the rendered release applied as manifests by the manifest deployer's
// applier, as upstream's helm deployer does with ParseFilesToRawExtension. Kept from upstream: CRDs first, the
// release namespace created (and kept) with createNamespace, documents that are not Kubernetes objects dropped.
// Fixed: `*List` documents expanded into their items (as Helm's kube client does), namespaced objects without a
// namespace put in the release namespace (a CRD of the same chart gives its CRs' scope: upstream #385), and test
// hooks not applied (upstream applies them as ordinary pods).
import { parseAllDocuments } from 'yaml';
import { NotFoundError } from '../../../client/errors.ts';
import type { KubeClient } from '../../../client/client.ts';
import type { RenderedRelease } from '../../../template/helm/release-render.ts';
import type { JSONObject } from '../../api/shared.ts';
import type { ManifestConfig } from '../manifest/config.ts';
import type { HelmConfig } from './config.ts';

type Entry = ManifestConfig['manifests'][number];

function isObject(v: unknown): v is JSONObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The Kubernetes objects of a manifest's text: documents without apiVersion, kind and a name are dropped. */
function objectsOf(content: string): JSONObject[] {
  const out: JSONObject[] = [];
  for (const doc of parseAllDocuments(content)) {
    const value: unknown = doc.toJS();
    if (!isObject(value) || typeof value['apiVersion'] !== 'string' || typeof value['kind'] !== 'string') continue;
    if (value['kind'].endsWith('List') && Array.isArray(value['items'])) {
      out.push(...value['items'].filter((item): item is JSONObject => isObject(item) && typeof item['kind'] === 'string'));
      continue;
    }
    out.push(value);
  }
  return out.filter((o) => isObject(o['metadata']) && typeof o['metadata']['name'] === 'string' && o['metadata']['name'] !== '');
}

/** Whether objects of this kind are namespaced: from discovery, or from a CRD the chart itself brings. */
async function namespacedKind(client: KubeClient, obj: JSONObject, chartCrds: JSONObject[]): Promise<boolean | undefined> {
  const apiVersion = obj['apiVersion'] as string;
  const kind = obj['kind'] as string;
  // The chart's own CRDs first: asking discovery about a kind not served yet would cache its absence.
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const crd = chartCrds.find((c) => isObject(c['spec']) && c['spec']['group'] === group && isObject(c['spec']['names']) && c['spec']['names']['kind'] === kind);
  if (crd && isObject(crd['spec'])) return crd['spec']['scope'] !== 'Cluster';
  try {
    return (await client.resolve({ apiVersion, kind })).namespaced;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** What helm-free mode applies for this render: a manifest deployer configuration. */
export async function helmFreeManifests(client: KubeClient, config: HelmConfig, rendered: RenderedRelease): Promise<ManifestConfig> {
  const crds = rendered.crds.flatMap((crd) => objectsOf(crd.data));
  const rest = [...rendered.manifests, ...rendered.hooks.filter((hook) => !hook.events.some((e) => e === 'test' || e === 'test-success'))].flatMap((m) => objectsOf(m.content));
  const entries: Entry[] = [];
  if (config.createNamespace === true) entries.push({ policy: 'keep', manifest: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: config.namespace } } });
  // As Helm: CRDs from crds/ are installed, never deleted (that would delete every custom resource of them).
  for (const crd of crds) entries.push({ policy: 'keep', manifest: crd });
  for (const obj of rest) {
    const meta = obj['metadata'] as JSONObject;
    if (meta['namespace'] === undefined && (await namespacedKind(client, obj, crds)) === true) obj['metadata'] = { ...meta, namespace: config.namespace };
    entries.push({ policy: 'manage', manifest: obj });
  }
  return {
    updateStrategy: config.updateStrategy,
    manifests: entries,
    ...(config.readinessChecks ? { readinessChecks: config.readinessChecks } : {}),
    ...(config.deletionGroups ? { deletionGroups: config.deletionGroups } : {}),
    ...(config.deletionGroupsDuringUpdate ? { deletionGroupsDuringUpdate: config.deletionGroupsDuringUpdate } : {}),
    // Exports from resources; those from values are read when planning.
    exports: { ...config.exports, exports: (config.exports?.exports ?? []).filter((e) => e.fromResource !== undefined) },
  } as ManifestConfig;
}
