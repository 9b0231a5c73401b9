// The smallest real controller family on Bosun's runtime, in the spirit of controller-runtime's
// examples/builtins: a Widget (test.bosun.dev/v1) publishes spec.data as a ConfigMap it owns.
//   Pending → Publishing (create the ConfigMap) → Ready once the owned ConfigMap shows up in the cache;
//   spec.data that is not a string map fails the job; deleting the Widget deletes the ConfigMap first.
// docs/runtime.md ("Building a family") walks through it; test/runtime/example-family.test.ts runs it.
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import type { ResourceRef } from '../../src/client/client.ts';
import { AlreadyExistsError, NotFoundError } from '../../src/client/errors.ts';
import type { ClassifiedError, Condition, Family, Informer, Manager, PhaseMachine } from '../../src/runtime/index.ts';
import {
  action,
  finalizer,
  isConflict,
  messageOf,
  phaseResult,
  runPhases,
  setCondition,
} from '../../src/runtime/index.ts';

export const widgets: ResourceRef = { group: 'test.bosun.dev', version: 'v1', resource: 'widgets', namespaced: true, kind: 'Widget' };
const configMaps: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', namespaced: true, kind: 'ConfigMap' };
const FINALIZER = 'widgets.test.bosun.dev/config-map';

type Phase = 'Pending' | 'Publishing' | 'Ready' | 'Failed';
export interface WidgetStatus {
  phase?: Phase;
  conditions?: Condition[];
}
export type Widget = KubeObject & { spec?: { data?: unknown }; status?: WidgetStatus };

/** A spec the controller cannot act on, whatever it retries: the job ends Failed. */
class InvalidWidgetError extends Error {
  override readonly name = 'InvalidWidgetError' as const;
}

interface Deps {
  mgr: Manager;
  configMaps: Informer;
}

const configMapName = (w: Widget): string => `${w.metadata.name ?? ''}-data`;

// One handler per phase: each returns next / wait / done, or throws.
const handlers: PhaseMachine<Widget, Phase, WidgetStatus, Deps>['handlers'] = {
  Pending: async () => phaseResult.next('Publishing'),
  Publishing: async (w, { mgr, configMaps: cache }) => {
    const data = w.spec?.data;
    if (typeof data !== 'object' || data === null || Object.values(data).some((v) => typeof v !== 'string')) {
      throw new InvalidWidgetError('spec.data must map keys to strings');
    }
    const published = cache.store.get(`${w.metadata.namespace}/${configMapName(w)}`);
    if (published && isDeepStrictEqual(published['data'], data)) return phaseResult.next('Ready');
    const cm: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: configMapName(w),
        namespace: w.metadata.namespace,
        ownerReferences: [{ apiVersion: 'test.bosun.dev/v1', kind: 'Widget', name: w.metadata.name ?? '', uid: w.metadata.uid ?? '', controller: true }],
      },
      data,
    };
    if (published) await mgr.client.patch(configMaps, configMapName(w), [{ op: 'replace', path: '/data', value: data }], { type: 'json', namespace: w.metadata.namespace ?? '' });
    else await mgr.client.create(configMaps, cm).catch((err: unknown) => {
      if (!(err instanceof AlreadyExistsError)) throw err;
    });
    // The owned ConfigMap's event wakes the widget: no polling.
    return phaseResult.wait('ConfigMapPending', `waiting for ConfigMap ${configMapName(w)}`);
  },
};

function machine(deps: Deps): PhaseMachine<Widget, Phase, WidgetStatus, Deps> {
  const ready = (s: WidgetStatus, w: Widget, status: Condition['status'], reason: string, message: string): void =>
    void setCondition((s.conditions ??= []), { type: 'Ready', status, reason, message, observedGeneration: w.metadata.generation ?? 0 });
  return {
    handlers,
    phaseOf: (w) => w.status?.phase,
    // A Ready widget starts again when its spec changes (a new generation); Failed stays until then too.
    isFinal: (p) => p === 'Ready' || p === 'Failed',
    failedPhase: () => 'Failed',
    classify: (err, phase): ClassifiedError => ({
      class: isConflict(err) ? 'conflict' : err instanceof InvalidWidgetError ? 'fatal' : 'normal',
      operation: phase,
      reason: err instanceof Error ? err.name : 'Error',
      message: messageOf(err),
      cause: err,
    }),
    writer: deps.mgr.statusWriter<Widget>(widgets),
    recorder: deps.mgr.recorder('widget-controller'),
    status: {
      start: (s) => void (s.phase = 'Pending'),
      enter: (s, phase, w, failure) => {
        s.phase = phase;
        if (failure) ready(s, w, 'False', failure.reason, failure.message);
        else if (phase === 'Ready') ready(s, w, 'True', 'Published', 'the ConfigMap holds spec.data');
      },
      recordError: (s, err, w) => ready(s, w, 'False', err.reason, err.message),
      waiting: (s, waiting, w) => ready(s, w, 'False', waiting.reason, waiting.message),
    },
  };
}

function register(mgr: Manager): void {
  const deps: Deps = { mgr, configMaps: mgr.informer(configMaps) };
  const phases = machine(deps);
  mgr
    .controller<Widget, Deps>({
      name: 'widget',
      for: widgets,
      data: deps,
      // finalizer() adds the finalizer first (that write wakes the next reconcile), runs apply while the widget
      // lives, and on deletion runs cleanup, then removes the finalizer so the API server removes the widget.
      reconcile: (w, ctx) =>
        finalizer(mgr.client, widgets, FINALIZER, w, {
          apply: async (live) => {
            // A finished job runs again only for a new generation of the spec.
            const finished = live.status?.phase === 'Ready' || live.status?.phase === 'Failed';
            if (finished && live.status?.conditions?.[0]?.observedGeneration === live.metadata.generation) return action.awaitChange();
            return runPhases(phases, live, ctx.data);
          },
          cleanup: async (deleting) => {
            await mgr.client.delete(configMaps, configMapName(deleting), { namespace: deleting.metadata.namespace ?? '' }).catch((err: unknown) => {
              if (!(err instanceof NotFoundError)) throw err;
            });
            return action.awaitChange();
          },
        }),
    })
    .owns(deps.configMaps);
}

export const widgetFamily: Family = {
  name: 'widgets',
  groups: ['test.bosun.dev'],
  crds: ['widgets.test.bosun.dev'],
  rbac: [
    { apiGroups: ['test.bosun.dev'], resources: ['widgets'], verbs: ['get', 'list', 'watch', 'patch'] },
    { apiGroups: ['test.bosun.dev'], resources: ['widgets/status'], verbs: ['update'] },
    { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'] },
    { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
  ],
  register,
};
