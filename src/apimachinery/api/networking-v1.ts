// networking.k8s.io/v1 (k8s.io/api/networking/v1): Ingress and IngressClass, what ingress controllers and the
// charts that install them read and write.
import type { KubeObject } from '../object.ts';

export interface TypedLocalObjectReference {
  apiGroup?: string;
  kind: string;
  name: string;
}

export interface IngressServiceBackend {
  name: string;
  port?: { name?: string; number?: number };
}

export interface IngressBackend {
  service?: IngressServiceBackend;
  resource?: TypedLocalObjectReference;
}

export interface HTTPIngressPath {
  path?: string;
  pathType: 'Exact' | 'Prefix' | 'ImplementationSpecific';
  backend: IngressBackend;
}

export interface IngressRule {
  host?: string;
  http?: { paths: HTTPIngressPath[] };
}

export interface IngressTLS {
  hosts?: string[];
  secretName?: string;
}

export interface IngressSpec {
  ingressClassName?: string;
  defaultBackend?: IngressBackend;
  tls?: IngressTLS[];
  rules?: IngressRule[];
}

export interface IngressLoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ports?: { port: number; protocol: string; error?: string }[];
}

export interface Ingress extends KubeObject {
  spec?: IngressSpec;
  status?: { loadBalancer?: { ingress?: IngressLoadBalancerIngress[] } };
}

export interface IngressClassParametersReference extends TypedLocalObjectReference {
  scope?: 'Cluster' | 'Namespace';
  namespace?: string;
}

export interface IngressClass extends KubeObject {
  spec?: { controller?: string; parameters?: IngressClassParametersReference };
}
