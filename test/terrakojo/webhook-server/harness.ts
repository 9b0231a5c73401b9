// An embedded API server with the terrakojo CRDs, a client to it, and Repository helpers, for the webhook tests.
import { Writable } from 'node:stream';
import { namespacesResource } from '../../../src/apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../../src/client/client.ts';
import { createKubeClient } from '../../../src/client/create-client.ts';
import { NotFoundError } from '../../../src/client/errors.ts';
import { crdGroup, loadBosunCrds } from '../../../src/crds/index.ts';
import { createLogger } from '../../../src/runtime/logger.ts';
import { OWNER_LABEL, REPO_NAME_LABEL, SYNC_REQUESTED_AT_ANNOTATION, TERRAKOJO_API_VERSION, TERRAKOJO_GROUP } from '../../../src/terrakojo/api/constants.ts';
import { repositoriesResource } from '../../../src/terrakojo/api/resources.ts';
import type { Repository } from '../../../src/terrakojo/api/types.ts';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';

export async function startTerrakojoApi(): Promise<{ api: TestServer; client: KubeClient }> {
  const api = await startTestServer({ crds: loadBosunCrds().filter((crd) => crdGroup(crd) === TERRAKOJO_GROUP) });
  const client = createKubeClient({ kubeconfig: api.kubeconfig, userAgent: 'webhook-server-test' });
  return { api, client };
}

export async function ensureNamespace(client: KubeClient, name: string): Promise<void> {
  try {
    await client.get(namespacesResource, name);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    await client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
}

/** A Repository for owner/name; labelled as the Repository controller labels it unless labelled is false. */
export async function createRepository(client: KubeClient, namespace: string, objectName: string, owner: string, name: string, options: { labelled?: boolean } = {}): Promise<Repository> {
  await ensureNamespace(client, namespace);
  return client.create<Repository>(repositoriesResource, {
    apiVersion: TERRAKOJO_API_VERSION,
    kind: 'Repository',
    metadata: { name: objectName, namespace, ...(options.labelled === false ? {} : { labels: { [OWNER_LABEL]: owner, [REPO_NAME_LABEL]: name } }) },
    spec: { owner, name, type: 'github', defaultBranch: 'main', githubSecretRef: { name: 'github' } },
  });
}

export async function getRepository(client: KubeClient, namespace: string, name: string): Promise<Repository> {
  return client.get<Repository>(repositoriesResource, name, { namespace });
}

export function syncRequestedAt(repository: Repository): string | undefined {
  return repository.metadata.annotations?.[SYNC_REQUESTED_AT_ANNOTATION];
}

/** A logger whose lines are kept, to check what is (and is not) logged. */
export function capturedLogger(): { logger: ReturnType<typeof createLogger>; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      callback();
    },
  });
  return { logger: createLogger({ level: 'debug', destination }), lines };
}
