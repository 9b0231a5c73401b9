// The Service registry strategy: defaults, validation, what an update keeps, and the ClusterIP and NodePort
// allocation made as the Service is stored (ResourceType.allocate), over the server's service network.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { ResourceType } from '../registry/resource-type.ts';
import { allocateClusterIP } from './cluster-ip-allocator.ts';
import { allocateNodePorts } from './node-port-allocator.ts';
import { carryAllocations, defaultService, serviceSpec } from './service-defaults.ts';
import { serviceNetwork, type ServiceNetwork } from './service-network.ts';
import { serviceCauses } from './service-validation.ts';

type Strategy = Required<Pick<ResourceType, 'prepareForCreate' | 'prepareForUpdate' | 'validate' | 'allocate'>>;

export function serviceStrategy(network: ServiceNetwork = serviceNetwork()): Strategy {
  return {
    prepareForCreate(service) {
      defaultService(serviceSpec(service));
      service['status'] = { loadBalancer: {} };
    },
    prepareForUpdate(service: KubeObject, old: KubeObject) {
      const spec = serviceSpec(service);
      carryAllocations(spec, serviceSpec(old));
      defaultService(spec);
    },
    validate: serviceCauses,
    allocate(service, old, others) {
      allocateClusterIP(network, service, old, others);
      allocateNodePorts(service, old, others);
    },
  };
}
