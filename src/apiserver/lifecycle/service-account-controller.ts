// What kube-controller-manager keeps in every namespace for pods' identity: the serviceaccounts controller's
// `default` ServiceAccount, and the root CA publisher's `kube-root-ca.crt` ConfigMap holding the CA that verifies
// the API server, which projected service account volumes mount as `ca.crt`. Both come back when deleted and
// the ConfigMap is put right when changed. Run by the API server itself, so they exist with `--controllers none`.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { ResourceType } from '../registry/resource-type.ts';
import type { StoreEvent } from '../storage/sqlite-store.ts';
import { ServerController, type ServerParts } from './server-controller.ts';

const namespaces = '/namespaces';
const serviceAccounts = '/serviceaccounts';
const configMaps = '/configmaps';
export const DEFAULT_SERVICE_ACCOUNT = 'default';
export const ROOT_CA_CONFIG_MAP = 'kube-root-ca.crt';
/** The annotation upstream's root CA publisher sets. */
const ROOT_CA_DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

export class ServiceAccountController extends ServerController {
  /** Undefined: the root CA publisher is off (kube-controller-manager's --controllers=-root-ca-cert-publisher). */
  private readonly caCert: string | undefined;

  constructor(parts: ServerParts, caCert: string | undefined) {
    super(parts);
    this.caCert = caCert;
    for (const ns of this.store.list(namespaces)) this.queue.add(ns.object.metadata.name ?? '');
    this.listen();
  }

  protected observe(event: StoreEvent): void {
    if (event.resource === namespaces) {
      if (event.type !== 'DELETED') this.queue.add(event.current.object.metadata.name ?? '');
      return;
    }
    const name = event.current.object.metadata.name;
    if ((event.resource === serviceAccounts && name === DEFAULT_SERVICE_ACCOUNT && event.type === 'DELETED') || (event.resource === configMaps && name === ROOT_CA_CONFIG_MAP)) {
      this.queue.add(event.namespace);
    }
  }

  /** The namespace's default ServiceAccount, made now if missing (also asked by pod admission, not to race this controller). */
  ensureDefault(namespace: string): void {
    const ns = this.store.get(namespaces, '', namespace);
    if (!ns || ns.object.metadata.deletionTimestamp) return;
    const saType = this.type(serviceAccounts);
    if (!this.objects.find(saType, namespace, DEFAULT_SERVICE_ACCOUNT)) {
      this.objects.create(saType, namespace, { metadata: { name: DEFAULT_SERVICE_ACCOUNT } }, { fieldManager: 'service-account-controller' });
    }
  }

  protected process(namespace: string): void {
    const ns = this.store.get(namespaces, '', namespace);
    if (!ns || ns.object.metadata.deletionTimestamp) return;
    this.ensureDefault(namespace);
    const caCert = this.caCert;
    if (caCert === undefined) return;
    const cmType = this.type(configMaps);
    const cm = this.objects.find(cmType, namespace, ROOT_CA_CONFIG_MAP);
    if (!cm) {
      this.objects.create(cmType, namespace, { metadata: { name: ROOT_CA_CONFIG_MAP, annotations: { 'kubernetes.io/description': ROOT_CA_DESCRIPTION } }, data: { 'ca.crt': caCert } }, { fieldManager: 'root-ca-cert-publisher' });
    } else if (!holdsCa(cm.object, caCert)) {
      this.objects.mutate(cmType, cm, (o) => {
        o['data'] = { 'ca.crt': caCert };
        delete o['binaryData'];
      });
    }
  }

  private type(key: string): ResourceType {
    const type = this.registry.byStorageKey(key);
    if (!type) throw new Error(`no resource type ${key}`);
    return type;
  }
}

function holdsCa(cm: KubeObject, caCert: string): boolean {
  const data = cm['data'] as Record<string, string> | undefined;
  return data !== undefined && Object.keys(data).length === 1 && data['ca.crt'] === caCert && cm['binaryData'] === undefined;
}
