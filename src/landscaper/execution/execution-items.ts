// The templates' deploy items as the execution sees them now: Progressing classifies them, Completing
// collects their exports.
import type { DeployItem } from '../api/deploy-item.ts';
import type { DeployItemTemplate, Execution } from '../api/execution.ts';
import type { ExecutionItem } from './classification.ts';
import { cachedDeployItem, expectedDeployItem, type ExecutionEnv } from './env.ts';

/** One item per template, with its deploy item (`written` is fresher than the cache). */
export async function executionItems(env: ExecutionEnv, exec: Execution, templates: readonly DeployItemTemplate[], written: ReadonlyMap<string, DeployItem>): Promise<ExecutionItem[]> {
  const objectNames = new Map((exec.status?.deployItemCache?.activeDIs ?? []).map((p) => [p.specName ?? '', p.objectName ?? '']));
  const namespace = exec.metadata.namespace;
  // Synchronous for everything the cache (or our own writes) has; the server is asked only for the rest.
  const items: ExecutionItem[] = [];
  const misses: Promise<void>[] = [];
  for (const t of templates) {
    const objectName = written.get(t.name)?.metadata.name ?? objectNames.get(t.name);
    const item: ExecutionItem = { name: t.name, dependsOn: t.dependsOn ?? [], ...(objectName ? { objectName } : {}) };
    items.push(item);
    const known = written.get(t.name) ?? (objectName ? cachedDeployItem(env, namespace, objectName) : undefined);
    if (known) item.deployItem = known;
    else if (objectName) {
      misses.push(
        expectedDeployItem(env, namespace, objectName).then((di) => {
          if (di) item.deployItem = di;
        }),
      );
    }
  }
  await Promise.all(misses);
  return items;
}
