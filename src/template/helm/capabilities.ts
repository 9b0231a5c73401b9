// chartutil.DefaultCapabilities' API versions as Helm v3.19.2 lists them: client-go v0.34.0's scheme
// (kubernetes/scheme/register.go, in registration order, core "v1" first) plus apiextensions v1beta1 and v1.
export const DEFAULT_API_VERSIONS: string[] = [
  'v1', 'admissionregistration.k8s.io/v1', 'admissionregistration.k8s.io/v1alpha1',
  'admissionregistration.k8s.io/v1beta1', 'internal.apiserver.k8s.io/v1alpha1', 'apps/v1', 'apps/v1beta1',
  'apps/v1beta2', 'authentication.k8s.io/v1', 'authentication.k8s.io/v1alpha1', 'authentication.k8s.io/v1beta1',
  'authorization.k8s.io/v1', 'authorization.k8s.io/v1beta1', 'autoscaling/v1', 'autoscaling/v2',
  'autoscaling/v2beta1', 'autoscaling/v2beta2', 'batch/v1', 'batch/v1beta1', 'certificates.k8s.io/v1',
  'certificates.k8s.io/v1beta1', 'certificates.k8s.io/v1alpha1', 'coordination.k8s.io/v1alpha2',
  'coordination.k8s.io/v1beta1', 'coordination.k8s.io/v1', 'discovery.k8s.io/v1', 'discovery.k8s.io/v1beta1',
  'events.k8s.io/v1', 'events.k8s.io/v1beta1', 'extensions/v1beta1', 'flowcontrol.apiserver.k8s.io/v1',
  'flowcontrol.apiserver.k8s.io/v1beta1', 'flowcontrol.apiserver.k8s.io/v1beta2',
  'flowcontrol.apiserver.k8s.io/v1beta3', 'networking.k8s.io/v1', 'networking.k8s.io/v1beta1', 'node.k8s.io/v1',
  'node.k8s.io/v1alpha1', 'node.k8s.io/v1beta1', 'policy/v1', 'policy/v1beta1', 'rbac.authorization.k8s.io/v1',
  'rbac.authorization.k8s.io/v1beta1', 'rbac.authorization.k8s.io/v1alpha1', 'resource.k8s.io/v1',
  'resource.k8s.io/v1beta2', 'resource.k8s.io/v1beta1', 'resource.k8s.io/v1alpha3', 'scheduling.k8s.io/v1alpha1',
  'scheduling.k8s.io/v1beta1', 'scheduling.k8s.io/v1', 'storage.k8s.io/v1beta1', 'storage.k8s.io/v1',
  'storage.k8s.io/v1alpha1', 'storagemigration.k8s.io/v1alpha1', 'apiextensions.k8s.io/v1beta1',
  'apiextensions.k8s.io/v1',
];
