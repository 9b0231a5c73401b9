// container-failure (upstream injector/container_failure.go): SIGTERM, or SIGKILL with --forced, to the
// container's main process. Nothing to undo: the kubelet (here the node agent) restarts the container or not.
// Not reinjectable (REINJECTABLE_KINDS): upstream killed every restart again, a CrashLoopBackOff (#747).
import type { Injector, InjectorContext, KindDefinition } from '../injector.ts';
import { TargetResolutionError } from '../errors.ts';

class ContainerFailureInjector implements Injector {
  readonly kind = 'container-failure' as const;

  constructor(
    private readonly ctx: InjectorContext,
    private readonly forced: boolean,
  ) {}

  async inject(): Promise<void> {
    const { container } = this.ctx.target;
    if (!container) throw new TargetResolutionError('container-failure needs a target container (pod level)');
    if (container.pid === undefined) throw new TargetResolutionError(`container ${container.container} (${container.id}) is not running: no process to kill`);
    const signal = this.forced ? 'SIGKILL' : 'SIGTERM';
    this.ctx.log.info('killing container', { container: container.id, pid: container.pid, signal });
    await this.ctx.writes.kill(container.pid, signal);
  }

  clean(): Promise<void> {
    return Promise.resolve();
  }
}

export const containerFailureKind: KindDefinition = {
  name: 'container-failure',
  options: [{ flags: '--forced', description: 'send SIGKILL instead of SIGTERM', defaultValue: false }],
  create: (ctx, values) => new ContainerFailureInjector(ctx, values['forced'] === true),
};
