// A realistic Landscaper blueprint deploy execution: N deploy items built with nested range,
// include, toYaml and nindent. Shared by the golden corpus and bench/template.bench.ts.

export interface BlueprintCase {
  template: string;
  data: unknown;
  files: Record<string, string>;
}

export function blueprintCase(items: number): BlueprintCase {
  const template = `deployItems:
{{- range $i, $c := .imports.components }}
- name: {{ $c.name }}
  type: landscaper.gardener.cloud/kubernetes-manifest
  target:
    import: {{ $.imports.cluster }}
  config:
    apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
    kind: ProviderConfiguration
    updateStrategy: {{ default "update" $c.strategy }}
    manifests:
    - policy: manage
      manifest:
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: {{ $c.name | lower | trunc 63 }}
          namespace: {{ $.imports.namespace | quote }}
          labels:
            {{- include "labels.tpl" (dict "name" $c.name "version" (ociRefVersion $c.image)) | nindent 12 }}
        spec:
          replicas: {{ $c.replicas | default 1 | int }}
          template:
            spec:
              containers:
              {{- range $c.containers }}
              - name: {{ .name }}
                image: {{ $c.image }}
                {{- with .env }}
                env:
                {{- range $k, $v := . }}
                - name: {{ $k | upper }}
                  value: {{ $v | toString | quote }}
                {{- end }}
                {{- end }}
                resources: {{- toYaml .resources | nindent 18 }}
              {{- end }}
    - policy: manage
      manifest:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: {{ printf "%s-config" $c.name }}
        data:
          config.yaml: |
            {{- toYaml $c.config | nindent 12 }}
          checksum: {{ toJson $c.config | sha256sum | trunc 16 }}
{{- end }}
`;
  const components = [];
  for (let i = 0; i < items; i++) {
    components.push({
      name: `Component-${i}`,
      image: `eu.gcr.io/gardener-project/component-${i % 7}:v1.${i}.0`,
      replicas: (i % 4) + 1,
      strategy: i % 3 === 0 ? 'patch' : '',
      containers: [
        { name: 'main', env: { log_level: i % 2 ? 'debug' : 'info', port: 8080 + i, enabled: i % 5 !== 0 }, resources: { limits: { cpu: `${100 + i}m`, memory: '128Mi' }, requests: { cpu: '50m' } } },
        { name: 'sidecar', resources: { limits: { memory: '64Mi' } } },
      ],
      config: { id: i, name: `component-${i}`, features: ['a', 'b', i % 2 ? 'c' : 'd'], nested: { ratio: i / 8, on: i % 2 === 0, empty: null } },
    });
  }
  return {
    template,
    data: { imports: { cluster: 'my-cluster', namespace: 'landscape', components } },
    files: {
      'labels.tpl': 'app.kubernetes.io/name: {{ .name | lower }}\napp.kubernetes.io/version: {{ .version | quote }}\napp.kubernetes.io/managed-by: landscaper',
    },
  };
}

/** One-line templates of the kind blueprints use everywhere (bench "simple"). */
export const simpleTemplates: { template: string; data: unknown }[] = [
  { template: 'name: {{ .imports.name | quote }}', data: { imports: { name: 'my-app' } } },
  { template: 'replicas: {{ default 1 .imports.replicas }}', data: { imports: { replicas: 3 } } },
  { template: '{{ if .imports.enabled }}enabled{{ else }}disabled{{ end }}', data: { imports: { enabled: true } } },
  { template: 'image: {{ printf "%s:%s" .imports.repo .imports.tag }}', data: { imports: { repo: 'nginx', tag: '1.25' } } },
];
