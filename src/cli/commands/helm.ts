// `bosun helm template [RELEASE] CHART`: renders a chart and prints exactly what `helm template` prints; the
// release commands (install, upgrade, uninstall, list, history) are in helm-releases.ts.
import { Command } from 'commander';
import { render, templateFunctions } from '../../template/index.ts';
import { loadChart } from '../../template/helm/chart.ts';
import { parseGoYaml } from '../../template/helm/go-yaml.ts';
import { HelmRenderFailure, helmTemplate, mergeMaps } from '../../template/helm/template.ts';
import { parseSet } from '../../template/helm/strvals.ts';
import type { Values } from '../../template/helm/values.ts';
import { readInputFile } from '../input-files.ts';
import { addReleaseCommands } from './helm-releases.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

const collect = (v: string, prev: string[]): string[] => [...prev, v];

export interface HelmTemplateFlags {
  values: string[];
  set: string[];
  setString: string[];
  namespace: string;
  kubeVersion?: string;
  apiVersions: string[];
  includeCrds?: boolean;
  skipTests?: boolean;
  showOnly: string[];
  nameTemplate?: string;
  skipSchemaValidation?: boolean;
  debug?: boolean;
}

/** The output of `helm template` for these arguments. */
export function runHelmTemplate(args: string[], flags: HelmTemplateFlags): string {
  if (args.length === 0) throw new Error('"helm template" requires at least 1 argument');
  const chartPath = args[args.length - 1]!;
  let releaseName = args.length > 1 ? args[0]! : 'release-name';
  if (flags.nameTemplate !== undefined) releaseName = render('name-template', flags.nameTemplate, null, { funcs: templateFunctions() });
  let values: Values = {};
  for (const f of flags.values) values = mergeMaps(values, (parseGoYaml(readInputFile('values file', f)) ?? {}) as Values);
  for (const s of flags.set) parseSet(s, values);
  for (const s of flags.setString) parseSet(s, values, true);
  const chart = loadChart(chartPath);
  return helmTemplate(chart, {
    releaseName, namespace: flags.namespace, values, kubeVersion: flags.kubeVersion, apiVersions: flags.apiVersions,
    includeCrds: flags.includeCrds, skipTests: flags.skipTests, showOnly: flags.showOnly,
    skipSchemaValidation: flags.skipSchemaValidation,
  });
}

export function helmCommand(): Command {
  const helm = new Command('helm').description("Helm's chart rendering (helm v3.19) and release commands on Helm's own release storage");
  helm
    .command('template')
    .description('render a chart locally and print the manifests as `helm template` does')
    .argument('[args...]', '[RELEASE] CHART')
    .option('-f, --values <file>', 'values file (repeatable)', collect, [])
    .option('--set <k=v>', 'set values (repeatable)', collect, [])
    .option('--set-string <k=v>', 'set string values (repeatable)', collect, [])
    .option('-n, --namespace <ns>', 'release namespace', 'default')
    .option('--kube-version <v>', 'Kubernetes version for .Capabilities')
    .option('-a, --api-versions <gv>', 'API versions for .Capabilities (repeatable)', collect, [])
    .option('--include-crds', 'include the crds/ directories')
    .option('--skip-tests', 'leave out test hooks')
    .option('-s, --show-only <path>', 'only the manifests from these templates (repeatable)', collect, [])
    .option('--name-template <tpl>', 'template for the release name')
    .option('--skip-schema-validation', 'do not check values against values.schema.json')
    .option('--debug', 'on a render error, print what was rendered before the error')
    .action((args: string[], flags: HelmTemplateFlags) => {
      try {
        process.stdout.write(runHelmTemplate(args, flags));
      } catch (e) {
        process.exitCode = 1;
        if (!(e instanceof HelmRenderFailure)) {
          process.stderr.write(`Error: ${messageOf(e)}\n`);
          return;
        }
        // As cmd/helm/template.go: the rendered text under --debug, else a hint to use it.
        if (flags.debug) process.stdout.write(`${e.manifest.trim()}\n`);
        process.stderr.write(flags.debug ? `Error: ${e.message}\n` : `Error: ${e.message}\n\nUse --debug flag to render out invalid YAML\n`);
      }
    });
  addReleaseCommands(helm);
  return helm;
}
