// kube-controller-manager's tokens controller, for the legacy `kubernetes.io/service-account-token` Secrets that
// tools still create and wait for: a Secret of that type annotated with its ServiceAccount's name gets a token
// that never expires, the CA and the namespace, and the ServiceAccount's uid as an annotation. A Secret whose
// ServiceAccount is missing (or was another with the same name) is deleted, as upstream does, and so are a
// ServiceAccount's token Secrets when it goes.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { ServiceAccountTokens } from '../auth/service-account-tokens.ts';
import type { ResourceType } from '../registry/resource-type.ts';
import type { StoreEvent } from '../storage/sqlite-store.ts';
import { ServerController, type ServerParts } from './server-controller.ts';

const secrets = '/secrets';
export const SERVICE_ACCOUNT_TOKEN_TYPE = 'kubernetes.io/service-account-token';
const NAME_ANNOTATION = 'kubernetes.io/service-account.name';
const UID_ANNOTATION = 'kubernetes.io/service-account.uid';

const isTokenSecret = (object: KubeObject) => object['type'] === SERVICE_ACCOUNT_TOKEN_TYPE;
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

export class ServiceAccountTokenController extends ServerController {
  constructor(
    parts: ServerParts,
    private readonly tokens: ServiceAccountTokens,
    private readonly caCert: string,
  ) {
    super(parts);
    for (const secret of this.store.list(secrets)) if (isTokenSecret(secret.object)) this.queue.add(keyOf(secret.object));
    this.listen();
  }

  protected observe(event: StoreEvent): void {
    const object = event.current.object;
    if (event.resource === secrets && event.type !== 'DELETED' && isTokenSecret(object)) this.queue.add(keyOf(object));
    if (event.resource === '/serviceaccounts' && event.type === 'DELETED') {
      for (const secret of this.store.list(secrets, event.namespace)) {
        if (isTokenSecret(secret.object) && secret.object.metadata.annotations?.[NAME_ANNOTATION] === object.metadata.name) this.queue.add(keyOf(secret.object));
      }
    }
  }

  protected process(key: string): void {
    const [namespace = '', name = ''] = key.split('/');
    const stored = this.store.get(secrets, namespace, name);
    if (!stored || !isTokenSecret(stored.object) || stored.object.metadata.deletionTimestamp) return;
    const annotations = stored.object.metadata.annotations ?? {};
    const saName = annotations[NAME_ANNOTATION];
    if (!saName) return;
    const sa = this.store.get('/serviceaccounts', namespace, saName)?.object;
    const secretType = this.type();
    if (!sa || (annotations[UID_ANNOTATION] !== undefined && annotations[UID_ANNOTATION] !== sa.metadata.uid)) {
      this.objects.delete(secretType, namespace, name, { propagationPolicy: 'Background' });
      return;
    }
    const data = (stored.object['data'] ?? {}) as Record<string, string>;
    if (data['token'] && data['ca.crt'] === b64(this.caCert) && data['namespace'] === b64(namespace) && annotations[UID_ANNOTATION] === sa.metadata.uid) return;
    this.objects.mutate(secretType, stored, (secret) => {
      secret.metadata.annotations = { ...secret.metadata.annotations, [UID_ANNOTATION]: sa.metadata.uid ?? '' };
      secret['data'] = { ...data, token: data['token'] ?? b64(this.tokens.issueLegacy(sa, secret)), 'ca.crt': b64(this.caCert), namespace: b64(namespace) };
    });
  }

  private type(): ResourceType {
    const type = this.registry.byStorageKey(secrets);
    if (!type) throw new Error('no resource type /secrets');
    return type;
  }
}

function keyOf(object: KubeObject): string {
  return `${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`;
}
