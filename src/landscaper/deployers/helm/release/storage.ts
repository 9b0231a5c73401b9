// Helm's release storage on Secrets (pkg/storage/driver/secrets.go): one Secret per revision,
// `sh.helm.release.v1.NAME.vREVISION`, type `helm.sh/release.v1`, labelled name, owner=helm, status, version and
// createdAt/modifiedAt (Unix seconds); `data.release` holds the encoded release. Helm's own clients read these.
import type { Secret } from '../../../../apimachinery/api/index.ts';
import { secretsResource } from '../../../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../../../client/client.ts';
import { NotFoundError } from '../../../../client/errors.ts';
import { decodeRelease, encodeRelease, type Release } from '../../../../template/helm/release/release.ts';

export const RELEASE_SECRET_TYPE = 'helm.sh/release.v1';

export function releaseSecretName(name: string, version: number): string {
  return `sh.helm.release.v1.${name}.v${version}`;
}

const unixNow = (): string => String(Math.floor(Date.now() / 1000));

export class ReleaseStorage {
  constructor(private readonly client: KubeClient) {}

  private secret(release: Release, createdAt: string, modifiedAt?: string): Secret {
    return {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: releaseSecretName(release.name, release.version),
        namespace: release.namespace,
        labels: { name: release.name, owner: 'helm', status: release.info.status, version: String(release.version), createdAt, ...(modifiedAt ? { modifiedAt } : {}) },
      },
      type: RELEASE_SECRET_TYPE,
      data: { release: Buffer.from(encodeRelease(release)).toString('base64') },
    } as Secret;
  }

  async create(release: Release): Promise<void> {
    await this.client.create(secretsResource, this.secret(release, unixNow()), { namespace: release.namespace });
  }

  async update(release: Release): Promise<void> {
    const name = releaseSecretName(release.name, release.version);
    const current = await this.client.get<Secret>(secretsResource, name, { namespace: release.namespace });
    const next = this.secret(release, current.metadata.labels?.['createdAt'] ?? unixNow(), unixNow());
    await this.client.update(secretsResource, { ...next, metadata: { ...next.metadata, resourceVersion: current.metadata.resourceVersion } }, { namespace: release.namespace });
  }

  async delete(name: string, namespace: string, version: number): Promise<void> {
    await this.client.delete(secretsResource, releaseSecretName(name, version), { namespace }).catch((err: unknown) => {
      if (!(err instanceof NotFoundError)) throw err;
    });
  }

  /** Every revision of the release, oldest first. */
  async history(name: string, namespace: string): Promise<Release[]> {
    return this.query(namespace, `owner=helm,name=${name}`);
  }

  /** Every revision of every release in the namespace (all namespaces when undefined). */
  async query(namespace: string | undefined, labelSelector = 'owner=helm'): Promise<Release[]> {
    const list = await this.client.list<Secret>(secretsResource, { ...(namespace !== undefined ? { namespace } : {}), labelSelector });
    const releases: Release[] = [];
    for (const secret of list.items) {
      const data = secret.data?.['release'];
      if (secret.type !== RELEASE_SECRET_TYPE || data === undefined) continue;
      releases.push(decodeRelease(Buffer.from(data, 'base64').toString('utf8')));
    }
    return releases.sort((a, b) => a.version - b.version);
  }
}
