// Deploy items on `bosun up`, seen through kubectl: wait until an item finished a job, and delete one no
// execution owns (the test-reconcile annotation gives the deletion its job, as an execution's trigger would).
import { eventually } from '../helpers/api-server.ts';
import type { BosunUp } from '../node/e2e/bosun-up.ts';

export interface ItemStatus {
  phase?: string;
  jobID?: string;
  jobIDFinished?: string;
  lastError?: { message?: string };
  conditions?: { type: string; status: string }[];
}

export async function itemStatus(up: BosunUp, name: string): Promise<ItemStatus> {
  return (JSON.parse(await up.ok(['get', 'di', name, '-n', 'default', '-o', 'json'])) as { status?: ItemStatus }).status ?? {};
}

/** Waits until the item finished a job other than `previous`, and returns its status. */
export async function finishedJob(up: BosunUp, name: string, previous?: string): Promise<ItemStatus> {
  let last: ItemStatus = {};
  return eventually(
    async () => {
      last = await itemStatus(up, name);
      return last.jobID !== undefined && last.jobID !== previous && last.jobIDFinished === last.jobID ? last : undefined;
    },
    120_000,
    `${name} to finish a job (last: ${JSON.stringify(last)})`,
  );
}

export async function deleteItem(up: BosunUp, name: string): Promise<void> {
  await up.ok(['delete', 'di', name, '-n', 'default', '--wait=false']);
  await up.ok(['annotate', 'di', name, '-n', 'default', 'landscaper.gardener.cloud/operation=test-reconcile']);
  await up.ok(['wait', '--for=delete', `di/${name}`, '-n', 'default', '--timeout=120s']);
}
