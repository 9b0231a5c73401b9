// `npm run bench:helm`: Bosun's Helm engine against Go's (the real `helm template` binary) on the same charts in
// the same run: upstream Landscaper's tutorial ingress-nginx chart and a generated 200-template chart.
// Bosun: loadChart + helmTemplate in this process (warm JIT). Helm: wall time of `helm template CHART` minus the
// median wall time of `helm template` on a one-template chart (process start-up, flag parsing, a trivial
// render), so what is left is Helm's load, render and sort of the chart. Medians of BENCH_RUNS (default 15).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadChart } from '../src/template/helm/chart.ts';
import { helmTemplate } from '../src/template/helm/template.ts';
import { helmBinary } from '../test/helpers/helm-binary.ts';

const runs = Math.max(5, Number(process.env['BENCH_RUNS'] ?? 15));
const home = mkdtempSync(join(tmpdir(), 'bosun-bench-helm-'));
const env = { ...process.env, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data') };
const helm = helmBinary();

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

function writeChart(name: string, templates: Record<string, string>, values: string): string {
  const dir = join(home, name);
  mkdirSync(join(dir, 'templates'), { recursive: true });
  writeFileSync(join(dir, 'Chart.yaml'), `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`);
  writeFileSync(join(dir, 'values.yaml'), values);
  for (const [file, text] of Object.entries(templates)) writeFileSync(join(dir, 'templates', file), text);
  return dir;
}

/** 200 templates of the kinds charts are made of: helpers by include, ranges, toYaml | nindent, defaults. */
function generatedChart(): string {
  const templates: Record<string, string> = {
    '_helpers.tpl': `{{- define "gen.fullname" -}}{{ printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}{{- end -}}
{{- define "gen.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}
`,
  };
  for (let i = 0; i < 200; i++) {
    templates[`app-${String(i).padStart(3, '0')}.yaml`] = i % 2 === 0
      ? `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "gen.fullname" . }}-${i}
  labels:
    {{- include "gen.labels" . | nindent 4 }}
spec:
  replicas: {{ .Values.replicas | default 1 }}
  selector:
    matchLabels:
      {{- include "gen.labels" . | nindent 6 }}
  template:
    metadata:
      annotations:
        checksum: {{ toYaml .Values.config | sha256sum | trunc 16 }}
    spec:
      containers:
      {{- range $name, $c := .Values.containers }}
      - name: {{ $name }}-${i}
        image: "{{ $c.image }}:{{ $c.tag | default "latest" }}"
        env:
        {{- range $k, $v := $.Values.env }}
        - name: {{ $k | upper }}
          value: {{ $v | quote }}
        {{- end }}
        resources:
          {{- toYaml $c.resources | nindent 10 }}
      {{- end }}
`
      : `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "gen.fullname" . }}-${i}
  labels:
    {{- include "gen.labels" . | nindent 4 }}
data:
  config.json: {{ toJson .Values.config | quote }}
  {{- range $k, $v := .Values.env }}
  {{ $k }}: {{ $v | quote }}
  {{- end }}
  {{- if .Values.extra }}
  extra: |
    {{- toYaml .Values.extra | nindent 4 }}
  {{- end }}
`;
  }
  const values = `replicas: 2
containers:
  web: {image: nginx, tag: "1.25", resources: {limits: {cpu: 100m, memory: 64Mi}}}
  sidecar: {image: busybox, resources: {requests: {cpu: 10m}}}
env: {LOG_LEVEL: info, MODE: production, REGION: eu-1, FEATURE_X: "true"}
config: {a: 1, b: [x, y, z], c: {d: e}}
extra: {list: [1, 2, 3], map: {k: v}}
`;
  return writeChart('gen200', templates, values);
}

function timeHelm(chart: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    execFileSync(helm, ['template', 'r', chart, '--namespace', 'ns'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    out.push(Number(process.hrtime.bigint() - t));
  }
  return out;
}

function timeBosun(chart: string): number[] {
  const render = (): string => helmTemplate(loadChart(chart), { releaseName: 'r', namespace: 'ns', values: {} });
  for (let i = 0; i < 3; i++) render(); // warm up the JIT
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    render();
    out.push(Number(process.hrtime.bigint() - t));
  }
  return out;
}

const trivial = writeChart('trivial', { 'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n' }, '');
const charts: [string, string][] = [
  ['ingress-nginx 4.0.17 (tutorial chart, 18 documents)', join(import.meta.dirname, '..', 'test', 'fixtures', 'helm', 'ingress-nginx')],
  ['generated, 200 templates', generatedChart()],
];

const ms = (ns: number): string => (ns / 1e6).toFixed(1).padStart(7) + ' ms';
console.log(`medians of ${runs} runs; helm = ${helm}`);
console.log(`${'chart'.padEnd(52)} ${'Bosun'.padStart(10)} ${'helm (net)'.padStart(10)} ${'Bosun/helm'.padStart(10)}   helm wall, start-up`);
for (const [name, dir] of charts) {
  // Both engines must produce the same text, or the comparison means nothing.
  const same = execFileSync(helm, ['template', 'r', dir, '--namespace', 'ns'], { env, encoding: 'utf8' }) === helmTemplate(loadChart(dir), { releaseName: 'r', namespace: 'ns', values: {} });
  if (!same) console.log(`WARNING: ${name}: Bosun's output differs from helm's`);
  // The start-up baseline is measured right before each chart's helm runs.
  const bosun = median(timeBosun(dir));
  const startup = median(timeHelm(trivial));
  const wall = median(timeHelm(dir));
  const net = Math.max(wall - startup, 1);
  console.log(`${name.padEnd(52)} ${ms(bosun)} ${ms(net)} ${(bosun / net).toFixed(2).padStart(9)}x   ${ms(wall).trim()}, ${ms(startup).trim()}`);
}
