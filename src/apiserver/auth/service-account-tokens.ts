// Bound service account tokens, as kube-apiserver issues (TokenRequest) and checks them: JWTs naming the
// ServiceAccount and, when bound, the Pod or Secret they live as long as, signed with the server's key. A token
// authenticates while it is unexpired, meant for the audience asked, and what it names still exists with the uid
// it had (a deleted and recreated ServiceAccount or pod does not inherit old tokens).
import { createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import type { KubeObject } from '../../apimachinery/object.ts';
import type { SqliteStore } from '../storage/sqlite-store.ts';
import { signJwt, verifyJwt } from './jwt.ts';
import { SERVICE_ACCOUNT_ISSUER, type TokenAuthenticator } from './token-authenticator.ts';
import type { UserInfo } from './user-info.ts';

export const POD_NAME_EXTRA = 'authentication.kubernetes.io/pod-name';
export const POD_UID_EXTRA = 'authentication.kubernetes.io/pod-uid';
export const NODE_NAME_EXTRA = 'authentication.kubernetes.io/node-name';
export const NODE_UID_EXTRA = 'authentication.kubernetes.io/node-uid';
export const CREDENTIAL_ID_EXTRA = 'authentication.kubernetes.io/credential-id';

export interface IssueRequest {
  readonly serviceAccount: KubeObject;
  readonly audiences: readonly string[];
  readonly expirationSeconds: number;
  /** The Pod or Secret the token is bound to. */
  readonly bound?: { kind: 'Pod' | 'Secret'; object: KubeObject };
  readonly now?: Date;
}

interface Ref {
  name: string;
  uid: string;
}

interface KubernetesClaim {
  namespace?: string;
  serviceaccount?: Ref;
  pod?: Ref;
  secret?: Ref;
  node?: Ref;
}

const ref = (object: KubeObject): Ref => ({ name: object.metadata.name ?? '', uid: object.metadata.uid ?? '' });
/** A deleted pod's tokens stay good this long after its deletion timestamp, as upstream's grace. */
const DELETED_POD_GRACE_MS = 60_000;

export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

export class ServiceAccountTokens {
  private readonly publicKey: KeyObject;

  constructor(
    private readonly store: SqliteStore,
    private readonly privateKey: KeyObject,
  ) {
    this.publicKey = createPublicKey(privateKey);
  }

  /** A signed token and when it expires. */
  issue(request: IssueRequest): { token: string; expiresAt: Date } {
    const now = Math.floor((request.now ?? new Date()).getTime() / 1000);
    const sa = request.serviceAccount;
    const namespace = sa.metadata.namespace ?? '';
    const kubernetes: KubernetesClaim = { namespace, serviceaccount: ref(sa) };
    if (request.bound?.kind === 'Pod') {
      kubernetes.pod = ref(request.bound.object);
      const nodeName = (request.bound.object['spec'] as { nodeName?: string } | undefined)?.nodeName;
      const node = nodeName ? this.store.get('/nodes', '', nodeName)?.object : undefined;
      if (node) kubernetes.node = ref(node);
    } else if (request.bound?.kind === 'Secret') kubernetes.secret = ref(request.bound.object);
    const exp = now + request.expirationSeconds;
    const claims = {
      aud: [...request.audiences],
      exp,
      iat: now,
      iss: SERVICE_ACCOUNT_ISSUER,
      jti: randomUUID(),
      'kubernetes.io': kubernetes,
      nbf: now,
      sub: serviceAccountUsername(namespace, sa.metadata.name ?? ''),
    };
    return { token: signJwt(claims, this.privateKey), expiresAt: new Date(exp * 1000) };
  }

  /** The bound token authenticator (serviceaccount.JWTTokenAuthenticator with its validator). */
  readonly authenticate: TokenAuthenticator = (token, audiences) => {
    const claims = verifyJwt(token, this.publicKey);
    if (!claims || claims['iss'] !== SERVICE_ACCOUNT_ISSUER) return undefined;
    const now = Date.now() / 1000;
    if (typeof claims['exp'] !== 'number' || claims['exp'] <= now) return undefined;
    if (typeof claims['nbf'] === 'number' && claims['nbf'] > now) return undefined;
    const tokenAudiences = Array.isArray(claims['aud']) ? claims['aud'].filter((a): a is string => typeof a === 'string') : typeof claims['aud'] === 'string' ? [claims['aud']] : [];
    const granted = audiences.filter((a) => tokenAudiences.includes(a));
    if (granted.length === 0) return undefined;
    const k = claims['kubernetes.io'] as KubernetesClaim | undefined;
    const namespace = k?.namespace;
    if (!namespace || !k.serviceaccount || claims['sub'] !== serviceAccountUsername(namespace, k.serviceaccount.name)) return undefined;
    if (!this.holds('/serviceaccounts', namespace, k.serviceaccount)) return undefined;
    if (k.secret && !this.holds('/secrets', namespace, k.secret)) return undefined;
    const extra: Record<string, string[]> = {};
    if (k.pod) {
      const pod = this.store.get('/pods', namespace, k.pod.name)?.object;
      if (!pod || pod.metadata.uid !== k.pod.uid) return undefined;
      const deleted = pod.metadata.deletionTimestamp ? Date.parse(pod.metadata.deletionTimestamp) : undefined;
      if (deleted !== undefined && deleted + DELETED_POD_GRACE_MS < Date.now()) return undefined;
      extra[POD_NAME_EXTRA] = [k.pod.name];
      extra[POD_UID_EXTRA] = [k.pod.uid];
    }
    if (k.node) {
      extra[NODE_NAME_EXTRA] = [k.node.name];
      extra[NODE_UID_EXTRA] = [k.node.uid];
    }
    if (typeof claims['jti'] === 'string') extra[CREDENTIAL_ID_EXTRA] = [`JTI=${claims['jti']}`];
    const user: UserInfo = {
      username: serviceAccountUsername(namespace, k.serviceaccount.name),
      uid: k.serviceaccount.uid,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
      extra,
    };
    return { user, audiences: granted };
  };

  private holds(resource: string, namespace: string, claimed: Ref): boolean {
    return this.store.get(resource, namespace, claimed.name)?.object.metadata.uid === claimed.uid;
  }
}
