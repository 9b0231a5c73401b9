// Helm's hooks (pkg/action/hooks.go): the hooks of one event run in order of weight, then name; each is created
// after its `before-hook-creation` deletion (the default policy), and a Job or Pod hook is waited for until it
// completes (watched, not polled) within the action's timeout. `hook-succeeded` / `hook-failed` delete it after.
import type { KubeObject } from '../../../../apimachinery/object.ts';
import type { KubeClient } from '../../../../client/client.ts';
import { NotFoundError } from '../../../../client/errors.ts';
import { helmNow, type ReleaseHookRecord } from '../../../../template/helm/release/release.ts';
import { manifestObjects, type ReleaseObject } from './release-resources.ts';

export class HookFailedError extends Error {}

const optsOf = (o: ReleaseObject) => (o.namespace !== undefined ? { namespace: o.namespace } : {});

async function deleteAndWait(client: KubeClient, o: ReleaseObject): Promise<void> {
  try {
    await client.delete(o.ref, o.name, { ...optsOf(o), propagationPolicy: 'Background' });
  } catch (err) {
    if (err instanceof NotFoundError) return;
    throw err;
  }
  await until(client, o, (obj) => obj === undefined, 60_000, 'to be deleted');
}

/** Watches the object until done(object) (undefined: gone) or the timeout; resolves with the last object seen. */
async function until(client: KubeClient, o: ReleaseObject, done: (obj: KubeObject | undefined) => boolean, timeoutMs: number, what: string): Promise<KubeObject | undefined> {
  const list = await client.list(o.ref, { ...optsOf(o), fieldSelector: `metadata.name=${o.name}` });
  let current: KubeObject | undefined = list.items[0];
  if (done(current)) return current;
  const watch = await client.watch(o.ref, { ...optsOf(o), fieldSelector: `metadata.name=${o.name}`, resourceVersion: list.metadata.resourceVersion, timeoutSeconds: Math.max(1, Math.ceil(timeoutMs / 1000)) });
  try {
    for await (const event of watch) {
      current = event.type === 'DELETED' ? undefined : event.object;
      if (done(current)) return current;
    }
  } finally {
    watch.close();
  }
  throw new HookFailedError(`timed out waiting for ${o.ref.kind} ${o.name} ${what}`);
}

type Outcome = { ok: true } | { ok: false; reason: string };

function jobOutcome(obj: KubeObject | undefined): Outcome | undefined {
  if (!obj) return { ok: false, reason: 'deleted' };
  const conditions = ((obj['status'] as { conditions?: { type: string; status: string; reason?: string }[] } | undefined)?.conditions ?? []);
  if (conditions.some((c) => c.type === 'Complete' && c.status === 'True')) return { ok: true };
  const failed = conditions.find((c) => c.type === 'Failed' && c.status === 'True');
  return failed ? { ok: false, reason: failed.reason ?? 'Failed' } : undefined;
}

function podOutcome(obj: KubeObject | undefined): Outcome | undefined {
  if (!obj) return { ok: false, reason: 'deleted' };
  const phase = (obj['status'] as { phase?: string } | undefined)?.phase;
  return phase === 'Succeeded' ? { ok: true } : phase === 'Failed' ? { ok: false, reason: 'pod failed' } : undefined;
}

/** Runs the hooks of `event` (records' last_run updated in place); throws HookFailedError naming a failed one. */
export async function runHooks(client: KubeClient, namespace: string, hooks: ReleaseHookRecord[], event: string, timeoutMs: number): Promise<void> {
  const due = hooks.filter((h) => h.events.includes(event)).sort((a, b) => a.weight - b.weight || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const hook of due) {
    const policies = hook.delete_policies.length > 0 ? hook.delete_policies : ['before-hook-creation'];
    const objects = await manifestObjects(client, hook.manifest, namespace);
    if (policies.includes('before-hook-creation')) for (const o of objects) await deleteAndWait(client, o);
    hook.last_run = { started_at: helmNow(), completed_at: '', phase: 'Running' };
    let outcome: Outcome = { ok: true };
    for (const o of objects) {
      await client.create(o.ref, o.object as unknown as KubeObject, optsOf(o));
      const judge = o.ref.kind === 'Job' ? jobOutcome : o.ref.kind === 'Pod' ? podOutcome : undefined;
      if (!judge) continue;
      const last = await until(client, o, (obj) => judge(obj) !== undefined, timeoutMs, 'to complete');
      outcome = judge(last) ?? outcome;
      if (!outcome.ok) break;
    }
    hook.last_run = { ...hook.last_run, completed_at: helmNow(), phase: outcome.ok ? 'Succeeded' : 'Failed' };
    if ((outcome.ok && policies.includes('hook-succeeded')) || (!outcome.ok && policies.includes('hook-failed'))) {
      for (const o of objects) await deleteAndWait(client, o);
    }
    if (!outcome.ok) throw new HookFailedError(`${event} hook ${hook.path} failed: ${outcome.reason}`);
  }
}
