// Which Repositories read credentials from a Secret: every terrakojo controller watches Secrets through this, so a
// fixed Secret ends a credentials error at once instead of after backoff.
import { objectKey, type KubeObject } from '../../apimachinery/object.ts';
import type { Informer, Predicate } from '../../runtime/index.ts';
import type { Repository } from '../api/types.ts';

/** Repositories by the "namespace/name" of the Secret they read credentials from. */
const SECRET_INDEX = 'terrakojo.io/github-secret';

function secretOf(repo: Repository): string {
  const ref = repo.spec.githubSecretRef;
  return objectKey(ref.namespace || repo.metadata.namespace, ref.name);
}

/** Adds the index to the shared Repository informer, once, when a controller registers. */
export function indexRepositoriesBySecret(repositories: Informer<Repository>): void {
  if (!repositories.store.indexNames().includes(SECRET_INDEX)) repositories.addIndexer(SECRET_INDEX, secretOf);
}

/** The cached Repositories that read credentials from secret (after indexRepositoriesBySecret). */
export function repositoriesUsing(repositories: Informer<Repository>, secret: KubeObject): Repository[] {
  return repositories.store.byIndex(SECRET_INDEX, objectKey(secret.metadata.namespace, secret.metadata.name ?? ''));
}

/** A Secret matters when it appears, goes, or its contents change. */
export const secretContentChanged: Predicate = (e) =>
  e.type !== 'modified' || e.old === undefined || JSON.stringify([e.old['data'], e.old['stringData'], e.old['type']]) !== JSON.stringify([e.object['data'], e.object['stringData'], e.object['type']]);
