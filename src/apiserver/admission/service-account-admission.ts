// kube-apiserver's ServiceAccount admission plugin on pod create: a pod runs as `default` unless it names its
// ServiceAccount, which must exist (Forbidden, in upstream's words, otherwise), and unless the pod or its
// ServiceAccount says automountServiceAccountToken: false, every container mounts a `kube-api-access-*` projected
// volume (a bound token, the cluster CA, the namespace) at /var/run/secrets/kubernetes.io/serviceaccount, where
// client libraries look for in-cluster credentials.
import { isPlainObject } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { ROOT_CA_CONFIG_MAP } from '../lifecycle/service-account-controller.ts';
import { randomSuffix } from '../registry/generated-name.ts';
import type { SqliteStore } from '../storage/sqlite-store.ts';

export const SERVICE_ACCOUNT_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const VOLUME_PREFIX = 'kube-api-access-';
/** What upstream asks for: an hour and seven seconds, which tells a kubelet-requested token from others. */
const TOKEN_EXPIRATION_SECONDS = 3607;

type Json = Record<string, unknown>;
interface Container {
  volumeMounts?: Json[];
}

function apiAccessVolume(name: string): Json {
  return {
    name,
    projected: {
      defaultMode: 0o644,
      sources: [
        { serviceAccountToken: { expirationSeconds: TOKEN_EXPIRATION_SECONDS, path: 'token' } },
        { configMap: { name: ROOT_CA_CONFIG_MAP, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    },
  };
}

/** The pod body as admitted: changed in place (it is the request's own decoded body). */
export function admitPodServiceAccount(store: SqliteStore, namespace: string, pod: unknown): void {
  if (!isPlainObject(pod) || !isPlainObject(pod['spec'])) return;
  const spec = pod['spec'];
  const metadata = isPlainObject(pod['metadata']) ? pod['metadata'] : {};
  // Mirror pods (static pods a kubelet reports) have no API credentials.
  if (isPlainObject(metadata['annotations']) && metadata['annotations']['kubernetes.io/config.mirror'] !== undefined) return;
  if (typeof spec['serviceAccountName'] !== 'string' || spec['serviceAccountName'] === '') spec['serviceAccountName'] = typeof spec['serviceAccount'] === 'string' && spec['serviceAccount'] !== '' ? spec['serviceAccount'] : 'default';
  const saName = spec['serviceAccountName'] as string;
  const sa = store.get('/serviceaccounts', namespace, saName)?.object;
  if (!sa) {
    const name = typeof metadata['name'] === 'string' ? metadata['name'] : '';
    const why = `error looking up service account ${namespace}/${saName}: serviceaccount "${saName}" not found`;
    throw errors.forbidden(name ? `pods "${name}" is forbidden: ${why}` : `pods is forbidden: ${why}`, { ...(name ? { name } : {}), group: '', kind: 'pods' });
  }
  const automount = typeof spec['automountServiceAccountToken'] === 'boolean' ? spec['automountServiceAccountToken'] : sa['automountServiceAccountToken'] !== false;
  if (!automount) return;
  const volumes = Array.isArray(spec['volumes']) ? (spec['volumes'] as Json[]) : [];
  const existing = volumes.find((v) => typeof v['name'] === 'string' && v['name'].startsWith(VOLUME_PREFIX));
  const volumeName = typeof existing?.['name'] === 'string' ? existing['name'] : `${VOLUME_PREFIX}${randomSuffix()}`;
  let needed = false;
  for (const list of [spec['initContainers'], spec['containers']]) {
    if (!Array.isArray(list)) continue;
    for (const container of list as Container[]) {
      if (!isPlainObject(container)) continue;
      const mounts = Array.isArray(container.volumeMounts) ? container.volumeMounts : [];
      if (mounts.some((m) => m['mountPath'] === SERVICE_ACCOUNT_MOUNT_PATH)) continue;
      container.volumeMounts = [...mounts, { name: volumeName, readOnly: true, mountPath: SERVICE_ACCOUNT_MOUNT_PATH }];
      needed = true;
    }
  }
  if (needed && !existing) spec['volumes'] = [...volumes, apiAccessVolume(volumeName)];
}
