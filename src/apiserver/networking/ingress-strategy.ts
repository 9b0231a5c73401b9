// Ingresses and IngressClasses as kube-apiserver stores and admits them: an Ingress starts with an empty
// load-balancer status, and one created without spec.ingressClassName (and without the legacy class annotation)
// gets the newest IngressClass annotated ingressclass.kubernetes.io/is-default-class (the DefaultIngressClass
// admission plugin); an IngressClass's parameters default to the Cluster scope (SetDefaults_IngressClass).
import type { IngressClass } from '../../apimachinery/api/index.ts';
import { INGRESS_CLASS_ANNOTATION, isDefaultIngressClass } from '../../apimachinery/ingress-classes.ts';
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';
import { newestDefault } from '../registry/newest-default.ts';
import { storageKey, type ResourceType } from '../registry/resource-type.ts';
import { child } from '../registry/workload-strategies.ts';
import { toCauses } from '../services/field-checks.ts';
import type { SqliteStore } from '../storage/sqlite-store.ts';
import { validateIngress, validateIngressClass } from './ingress-validation.ts';

type Strategy = Pick<ResourceType, 'prepareForCreate' | 'prepareForUpdate' | 'validate'>;

/** The IngressClasses the DefaultIngressClass admission reads, straight from the store. */
export function storedIngressClasses(store: SqliteStore): () => IngressClass[] {
  const key = storageKey({ group: 'networking.k8s.io', plural: 'ingressclasses' });
  return () => store.list(key).map((s) => s.object as IngressClass);
}

/** The Ingresses' strategy with the DefaultIngressClass admission over the classes `classes()` lists. */
export function ingressStrategy(classes: () => IngressClass[]): Strategy {
  return {
    prepareForCreate(ingress) {
      ingress['status'] = { loadBalancer: {} };
      const spec = child(ingress, 'spec');
      if (typeof spec['ingressClassName'] === 'string' || ingress.metadata.annotations?.[INGRESS_CLASS_ANNOTATION] !== undefined) return;
      const chosen = newestDefault(classes(), isDefaultIngressClass);
      if (chosen) spec['ingressClassName'] = chosen.metadata.name;
    },
    validate: (ingress, old) => toCauses(validateIngress(ingress, old)),
  };
}

function defaultParametersScope(ingressClass: KubeObject): void {
  const parameters = (ingressClass['spec'] as Record<string, unknown> | undefined)?.['parameters'];
  if (isPlainObject(parameters)) parameters['scope'] ??= 'Cluster';
}

export const ingressClassStrategy: Strategy = {
  prepareForCreate: defaultParametersScope,
  prepareForUpdate: defaultParametersScope,
  validate: (ingressClass, old) => toCauses(validateIngressClass(ingressClass, old)),
};
