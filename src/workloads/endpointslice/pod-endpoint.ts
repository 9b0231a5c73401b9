// What a pod contributes to a Service's endpoints, shared by the endpointslice and endpoints controllers
// (endpointslice util's ShouldPodBeInEndpoints and ShouldSetHostname, FindPort).
import type { Pod, Service, ServicePort } from '../../apimachinery/api/index.ts';
import { isPodTerminal } from '../pods/pod-state.ts';
import { podAddresses } from './service-pods.ts';

/**
 * A pod is an endpoint while it has an address and has not finished; a terminating pod (deletionTimestamp set)
 * only when includeTerminating (EndpointSlices list it with terminating=true; Endpoints only with
 * publishNotReadyAddresses).
 */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  if (isPodTerminal(pod)) return false;
  if (podAddresses(pod).length === 0) return false;
  return includeTerminating || pod.metadata.deletionTimestamp === undefined;
}

/** A pod gets a hostname in a Service's endpoints (and so a DNS name) when its subdomain names that Service. */
export function shouldSetHostname(pod: Pod, service: Service): boolean {
  return (pod.spec.hostname ?? '') !== '' && pod.spec.subdomain === service.metadata.name && pod.metadata.namespace === service.metadata.namespace;
}

/** A Service port's protocol, TCP when unset (kube-apiserver defaults it). */
export function protocolOf(port: { protocol?: string }): string {
  return port.protocol ?? 'TCP';
}

/**
 * The pod's port a Service port sends to: a numeric targetPort as it is (unset means the Service port), a named
 * one looked up in the pod's containers' ports of the same protocol; undefined when the pod has no such port.
 */
export function findPort(pod: Pod, servicePort: ServicePort): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === 'number') return target;
  for (const container of pod.spec.containers) {
    for (const port of container.ports ?? []) {
      if (port.name === target && protocolOf(port) === protocolOf(servicePort)) return port.containerPort;
    }
  }
  return undefined;
}
