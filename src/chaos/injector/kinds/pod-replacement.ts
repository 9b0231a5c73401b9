// pod-replacement: asks the node agent to replace the target pod (cordon, delete its PVCs if asked, delete it,
// uncordon); upstream's injector/pod_replacement.go does the same with the API directly. Deviation: upstream's
// --delete-storage defaults to true while the controller passes the flag only when deleteStorage is true, so
// storage was always deleted; here it defaults to false. Clean is a no-op (a deleted pod stays deleted).
import { NODE_RUNTIME_SOCKET_ENV, type PodReplacementRequest } from '../../../client/node-runtime/protocol.ts';
import type { Injector, InjectorContext, KindDefinition } from '../injector.ts';
import type { NodeActions } from './node-actions.ts';
import { boolValue, InjectorOptionError, stringValue } from './option-values.ts';

export class PodReplacementError extends Error {
  override readonly name = 'PodReplacementError' as const;
}

export function podReplacementRequest(values: Readonly<Record<string, unknown>>): PodReplacementRequest {
  const grace = stringValue(values, 'gracePeriodSeconds');
  if (grace !== '' && !/^\d+$/.test(grace)) throw new InjectorOptionError(`--grace-period-seconds: "${grace}" is not a number of seconds`);
  return {
    deleteStorage: boolValue(values, 'deleteStorage', false),
    force: boolValue(values, 'forceDelete', false),
    ...(grace !== '' && { gracePeriodSeconds: Number(grace) }),
  };
}

class PodReplacementInjector implements Injector {
  readonly kind = 'pod-replacement' as const;

  constructor(
    private readonly ctx: InjectorContext,
    private readonly request: PodReplacementRequest,
    private readonly actions: NodeActions,
    /** Shared by the kind's injectors: one per targeted container, but the pod is replaced once. */
    private readonly replaced: Set<string>,
  ) {}

  async inject(): Promise<void> {
    const { target } = this.ctx;
    if (target.level !== 'pod' || !target.container) throw new PodReplacementError('pod replacement targets a pod: no target container was given');
    const namespace = target.container.namespace;
    const name = target.container.pod || target.targetName;
    const key = `${namespace}/${name}`;
    if (this.replaced.has(key)) return;
    const replacePod = this.actions.replacePod;
    if (!replacePod) throw new PodReplacementError(`cannot replace pod ${key}: no node runtime to ask (pod replacement needs the node agent's runtime socket, ${NODE_RUNTIME_SOCKET_ENV})`);
    this.ctx.log.info('replacing the target pod', { pod: key, ...this.request });
    await this.ctx.writes.runtimeCall(`replace pod ${key}`, () => replacePod.call(this.actions, namespace, name, this.request));
    this.replaced.add(key);
  }

  clean(): Promise<void> {
    return Promise.resolve();
  }
}

export function podReplacementKind(actions: NodeActions = {}): KindDefinition {
  const replaced = new Set<string>();
  return {
    name: 'pod-replacement',
    options: [
      { flags: '--delete-storage', description: 'If specified, PVCs associated with the target pod will be deleted', defaultValue: false },
      { flags: '--force-delete', description: 'If specified, the pod will be force deleted (grace period 0)', defaultValue: false },
      { flags: '--grace-period-seconds <seconds>', description: 'Grace period in seconds for pod deletion' },
    ],
    create: (ctx, values) => new PodReplacementInjector(ctx, podReplacementRequest(values), actions, replaced),
  };
}
