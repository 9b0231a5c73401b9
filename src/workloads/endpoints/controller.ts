// Registers the endpoints controller (kube-controller-manager's): core/v1 Endpoints for every Service with a
// selector, for clients that predate EndpointSlices. A Service is synced when it changes, when a pod it selects
// (or selected) changes in a way that matters, and when its Endpoints are changed or deleted by someone else.
import type { Endpoints, Pod, Service } from '../../apimachinery/api/index.ts';
import { endpointsResource, podsResource, servicesResource } from '../../apimachinery/builtin-resources.ts';
import { keyOf, type Controller, type Manager } from '../../runtime/index.ts';
import { podEndpointsChanged, servicesOfPod } from '../endpointslice/service-pods.ts';
import { TriggerTimeTracker } from '../endpointslice/trigger-time.ts';
import { syncEndpoints, type EndpointsControllerData } from './sync.ts';

export interface EndpointsControllerOptions {
  name?: string;
  concurrency?: number;
}

export function registerEndpointsController(mgr: Manager, options: EndpointsControllerOptions = {}): Controller<Service, EndpointsControllerData> {
  const pods = mgr.informer<Pod>(podsResource);
  const services = mgr.informer<Service>(servicesResource);
  const endpoints = mgr.informer<Endpoints>(endpointsResource);
  const triggerTimes = new TriggerTimeTracker();
  services.addEventHandler({ onDelete: (service) => triggerTimes.forget(keyOf(service)) });
  const data: EndpointsControllerData = {
    client: mgr.client,
    recorder: mgr.recorder('endpoint-controller'),
    pods,
    endpoints,
    writes: mgr.readYourWrites<Endpoints>(endpointsResource),
    triggerTimes,
  };
  return mgr
    .controller<Service, EndpointsControllerData>({ name: options.name ?? 'endpoints', for: servicesResource, data, concurrency: options.concurrency ?? 5, reconcile: syncEndpoints })
    .watches(pods, servicesOfPod(services), { predicates: [podEndpointsChanged] })
    .watches(endpoints, (e) => [keyOf(e)]);
}
