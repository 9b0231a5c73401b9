// kubelet's service account token manager: a projected serviceAccountToken is asked of the API server
// (TokenRequest, bound to the pod) once, kept, and asked for again once 80% of its lifetime or 24 hours have
// passed, so a running pod always reads a valid token. nextRefresh() tells the volume's keeper when to rewrite.
import type { KubeClient } from '../../../client/client.ts';
import { KubeApiError } from '../../../client/errors.ts';
import type { PodView } from '../pod-context.ts';
import { volumeSetUpError } from './volume-errors.ts';

const MAX_TOKEN_AGE_MS = 24 * 60 * 60 * 1000;

export interface TokenWanted {
  volumeName: string;
  pod: PodView;
  audience: string | undefined;
  expirationSeconds: number;
}

export class ProjectedTokens {
  private readonly held = new Map<string, Promise<string>>();
  private readonly refreshAt = new Map<string, number>();

  constructor(private readonly client: KubeClient) {}

  /** A valid token for the pod's ServiceAccount; the API server's refusal (a missing ServiceAccount) fails the mount. */
  async token(wanted: TokenWanted): Promise<string> {
    const { pod } = wanted;
    const serviceAccount = pod.spec.serviceAccountName ?? 'default';
    const key = JSON.stringify([pod.metadata.uid, serviceAccount, wanted.audience ?? '', wanted.expirationSeconds]);
    const refreshAt = this.refreshAt.get(key);
    if (refreshAt === undefined || Date.now() >= refreshAt) this.held.set(key, this.request(key, serviceAccount, wanted));
    try {
      return await this.held.get(key)!;
    } catch (error) {
      this.held.delete(key);
      this.refreshAt.delete(key);
      if (error instanceof KubeApiError && error.code >= 400 && error.code < 500) throw volumeSetUpError(wanted.volumeName, `failed to fetch token: ${error.message}`);
      throw error;
    }
  }

  /** When the first held token is due to be asked for again (ms since the epoch); undefined when none is held. */
  nextRefresh(): number | undefined {
    return this.refreshAt.size === 0 ? undefined : Math.min(...this.refreshAt.values());
  }

  private async request(key: string, serviceAccount: string, wanted: TokenWanted): Promise<string> {
    // Known before the answer, so a second read while this one is pending waits for it instead of asking again.
    this.refreshAt.set(key, Number.POSITIVE_INFINITY);
    const issuedAt = Date.now();
    const issued = await this.client.createToken(serviceAccount, {
      namespace: wanted.pod.metadata.namespace,
      expirationSeconds: wanted.expirationSeconds,
      ...(wanted.audience ? { audiences: [wanted.audience] } : {}),
      boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: wanted.pod.metadata.name, uid: wanted.pod.metadata.uid },
    });
    const lifetime = Date.parse(issued.expirationTimestamp) - issuedAt;
    this.refreshAt.set(key, issuedAt + Math.min(lifetime * 0.8, MAX_TOKEN_AGE_MS));
    return issued.token;
  }
}
