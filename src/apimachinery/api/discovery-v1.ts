// discovery.k8s.io/v1: EndpointSlices, the endpoints of a Service as the proxy and DNS read them.
import type { KubeObject } from '../object.ts';
import type { ObjectReference } from './core-v1.ts';

/** The label that ties a slice to its Service. */
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
/** Who keeps a slice; the endpointslice controller only touches its own. */
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';

export interface EndpointConditions {
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

export interface Endpoint {
  addresses: string[];
  conditions?: EndpointConditions;
  hostname?: string;
  targetRef?: ObjectReference;
  nodeName?: string;
  zone?: string;
}

export interface EndpointSlicePort {
  name?: string;
  protocol?: string;
  port?: number;
  appProtocol?: string;
}

export interface EndpointSlice extends KubeObject {
  addressType: 'IPv4' | 'IPv6' | 'FQDN';
  endpoints: Endpoint[];
  ports?: EndpointSlicePort[];
}
