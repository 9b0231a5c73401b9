// What one round of Progressing or Deleting leaves the execution waiting for, and how a failed item is named
// in the message that ends the job.
import type { DeployItem } from '../api/deploy-item.ts';
import type { ExecutionItem } from './classification.ts';

/** Deploy items still at work: `message` names them; `triggered` counts the items this round started. */
export interface ItemsWaiting {
  reason: string;
  message: string;
  triggered: number;
}

/** "b (exec-b-x7k2p: Failed: timeout)", "c (exec-c-9fj3s was deleted)": what went wrong with one item. */
export function describeFailedItem(item: ExecutionItem): string {
  const di: DeployItem | undefined = item.deployItem;
  const objectName = item.objectName ?? di?.metadata.name;
  if (!di) return `${item.name} (${objectName ? `deploy item ${objectName} was deleted` : 'no deploy item exists'})`;
  if (di.metadata.deletionTimestamp !== undefined && di.status?.phase !== 'DeleteFailed') return `${item.name} (${objectName ?? ''} is being deleted)`;
  const phase = di.status?.phase ?? 'no phase';
  const last = di.status?.lastError?.message;
  return `${item.name} (${objectName ?? ''}: ${phase}${last ? `: ${last}` : ''})`;
}
