// The annotations that choose an Ingress's class, shared by the API server's admission and validation and by
// anything that picks the class an Ingress belongs to.
import type { IngressClass } from './api/index.ts';

/** Set to "true" on the IngressClass an Ingress without spec.ingressClassName gets (the DefaultIngressClass admission plugin). */
export const DEFAULT_INGRESS_CLASS_ANNOTATION = 'ingressclass.kubernetes.io/is-default-class';
/** The class of an Ingress before spec.ingressClassName existed; with both set, the two must agree. */
export const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

export function isDefaultIngressClass(ingressClass: IngressClass): boolean {
  return ingressClass.metadata.annotations?.[DEFAULT_INGRESS_CLASS_ANNOTATION] === 'true';
}
