// NodePort allocation (30000–32767) for NodePort and LoadBalancer Services, as kube-apiserver's portallocator
// answers: a requested port must be in the range and free; ports without one get a free port at random, ports
// that share a service port number share the node port (TCP and UDP of one port). Like ClusterIPs, what is
// allocated is what the stored Services hold, chosen synchronously with the store's write.
import { randomInt } from 'node:crypto';
import { fieldError, toStatusCauses } from '../../apimachinery/field-error.ts';
import { path } from '../../apimachinery/field-path.ts';
import type { KubeObject } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { needsNodePorts, serviceSpec, servicePorts } from './service-defaults.ts';
import { NODE_PORT_MAX, NODE_PORT_MIN } from './service-network.ts';

function nodePortsOf(service: KubeObject): number[] {
  return servicePorts(serviceSpec(service))
    .map((p) => p['nodePort'])
    .filter((n): n is number => typeof n === 'number' && n !== 0);
}

function pick(taken: Set<number>): number | undefined {
  const count = NODE_PORT_MAX - NODE_PORT_MIN + 1;
  const start = randomInt(count);
  for (let i = 0; i < count; i++) {
    const port = NODE_PORT_MIN + ((start + i) % count);
    if (!taken.has(port)) return port;
  }
  return undefined;
}

/** Gives each port of `service` its node port (checks requested ones); `others` are the other stored Services. */
export function allocateNodePorts(service: KubeObject, old: KubeObject | undefined, others: readonly KubeObject[]): void {
  const spec = serviceSpec(service);
  if (!needsNodePorts(spec)) return;
  const own = new Set(old ? nodePortsOf(old) : []);
  const taken = new Set(others.flatMap(nodePortsOf));
  // LoadBalancer Services may opt out of new node ports, but keep requested ones.
  const allocateNew = spec['type'] === 'NodePort' || spec['allocateLoadBalancerNodePorts'] !== false;
  const byServicePort = new Map<unknown, number>();
  servicePorts(spec).forEach((port, i) => {
    const requested = port['nodePort'];
    if (typeof requested === 'number' && requested !== 0) {
      if (byServicePort.get(port['port']) !== requested && !own.has(requested)) {
        const refuse = (detail: string): never => {
          throw errors.invalid('Service', '', service.metadata.name ?? '', toStatusCauses([fieldError.invalid(path('spec').child('ports').index(i).child('nodePort'), requested, detail)]));
        };
        if (requested < NODE_PORT_MIN || requested > NODE_PORT_MAX) refuse(`provided port is not in the valid range. The range of valid ports is ${NODE_PORT_MIN}-${NODE_PORT_MAX}`);
        if (taken.has(requested)) refuse('provided port is already allocated');
      }
      taken.add(requested);
      byServicePort.set(port['port'], requested);
      return;
    }
    if (!allocateNew) return;
    const shared = byServicePort.get(port['port']);
    const chosen = shared ?? pick(taken);
    if (chosen === undefined) throw errors.internal('failed to allocate a nodePort: range is full');
    port['nodePort'] = chosen;
    taken.add(chosen);
    byServicePort.set(port['port'], chosen);
  });
}
