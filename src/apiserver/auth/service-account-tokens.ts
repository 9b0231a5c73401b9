// Bound service account tokens, as kube-apiserver issues (TokenRequest) and checks them: JWTs naming the
// ServiceAccount and, when bound, the Pod or Secret they live as long as, signed with the server's key. A token
// authenticates while it is unexpired, meant for the audience asked, and what it names still exists with the uid
// it had (a deleted and recreated ServiceAccount or pod does not inherit old tokens).
import { createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import type { KubeObject } from '../../apimachinery/object.ts';
import type { SqliteStore } from '../storage/sqlite-store.ts';
import { signJwt, verifyJwt } from './jwt.ts';
import { API_AUDIENCES, SERVICE_ACCOUNT_ISSUER, type TokenAuthentication, type TokenAuthenticator } from './token-authenticator.ts';
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
/** The issuer of legacy Secret-held tokens, which never expire and name no audience. */
const LEGACY_ISSUER = 'kubernetes/serviceaccount';
const LEGACY_CLAIM = 'kubernetes.io/serviceaccount/';
/** A deleted pod's tokens stay good this long after its deletion timestamp, as upstream's grace. */
const DELETED_POD_GRACE_MS = 60_000;

export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/** The groups every ServiceAccount of the namespace is in (serviceaccount.MakeGroupNames). */
export function serviceAccountGroups(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];
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

  /** A legacy token for a kubernetes.io/service-account-token Secret (what the token controller writes into it). */
  issueLegacy(serviceAccount: KubeObject, secret: KubeObject): string {
    const namespace = serviceAccount.metadata.namespace ?? '';
    const name = serviceAccount.metadata.name ?? '';
    return signJwt(
      {
        iss: LEGACY_ISSUER,
        [`${LEGACY_CLAIM}namespace`]: namespace,
        [`${LEGACY_CLAIM}secret.name`]: secret.metadata.name ?? '',
        [`${LEGACY_CLAIM}service-account.name`]: name,
        [`${LEGACY_CLAIM}service-account.uid`]: serviceAccount.metadata.uid ?? '',
        sub: serviceAccountUsername(namespace, name),
      },
      this.privateKey,
    );
  }

  /** The bound token authenticator (serviceaccount.JWTTokenAuthenticator with its validator), and the legacy one. */
  readonly authenticate: TokenAuthenticator = (token, audiences) => {
    const claims = verifyJwt(token, this.publicKey);
    if (claims?.['iss'] === LEGACY_ISSUER) return this.authenticateLegacy(token, claims, audiences);
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
      groups: [...serviceAccountGroups(namespace), 'system:authenticated'],
      extra,
    };
    return { user, audiences: granted };
  };

  /**
   * A legacy token is good while its Secret still holds it and its ServiceAccount is the one it was made for; it
   * names no audience, so it is good for the API server's own.
   */
  private authenticateLegacy(token: string, claims: Record<string, unknown>, audiences: readonly string[]): TokenAuthentication | undefined {
    const granted = audiences.filter((a) => API_AUDIENCES.includes(a));
    const claim = (key: string) => (typeof claims[`${LEGACY_CLAIM}${key}`] === 'string' ? (claims[`${LEGACY_CLAIM}${key}`] as string) : '');
    const namespace = claim('namespace');
    const serviceAccount = { name: claim('service-account.name'), uid: claim('service-account.uid') };
    if (granted.length === 0 || !namespace || claims['sub'] !== serviceAccountUsername(namespace, serviceAccount.name)) return undefined;
    const secret = this.store.get('/secrets', namespace, claim('secret.name'))?.object;
    const held = (secret?.['data'] as Record<string, string> | undefined)?.['token'];
    if (!secret || secret.metadata.deletionTimestamp || held === undefined || Buffer.from(held, 'base64').toString('utf8') !== token) return undefined;
    if (!this.holds('/serviceaccounts', namespace, serviceAccount)) return undefined;
    const user: UserInfo = {
      username: serviceAccountUsername(namespace, serviceAccount.name),
      uid: serviceAccount.uid,
      groups: [...serviceAccountGroups(namespace), 'system:authenticated'],
    };
    return { user, audiences: granted };
  }

  private holds(resource: string, namespace: string, claimed: Ref): boolean {
    return this.store.get(resource, namespace, claimed.name)?.object.metadata.uid === claimed.uid;
  }
}
