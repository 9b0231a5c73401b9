// chartutil.DefaultCapabilities' API versions (what client-go's scheme registers, as Helm v3.19 lists them).
export const DEFAULT_API_VERSIONS: string[] = [
  'v1', 'admissionregistration.k8s.io/v1', 'admissionregistration.k8s.io/v1beta1', 'apps/v1', 'authentication.k8s.io/v1',
  'authorization.k8s.io/v1', 'autoscaling/v1', 'autoscaling/v2', 'batch/v1', 'certificates.k8s.io/v1',
  'coordination.k8s.io/v1', 'discovery.k8s.io/v1', 'events.k8s.io/v1', 'flowcontrol.apiserver.k8s.io/v1',
  'networking.k8s.io/v1', 'node.k8s.io/v1', 'policy/v1', 'rbac.authorization.k8s.io/v1', 'scheduling.k8s.io/v1',
  'storage.k8s.io/v1', 'apiextensions.k8s.io/v1', 'apiregistration.k8s.io/v1',
];
