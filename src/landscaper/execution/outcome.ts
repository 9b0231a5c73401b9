// What a waiting phase (Progressing, Deleting) concluded in one reconcile.
import type { ErrorCode } from '../api/constants.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import type { ExecutionItem } from './classification.ts';

export type PhaseOutcome =
  /** Deploy items are still at work; `message` names what the execution waits for. */
  | { type: 'waiting'; reason: string; message: string; triggered: number }
  /** The job ends in Failed / DeleteFailed. */
  | { type: 'failed'; reason: string; message: string; codes: ErrorCode[] }
  /** Every item succeeded (Progressing) or is gone (Deleting). */
  | { type: 'done'; items: ExecutionItem[] };

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
