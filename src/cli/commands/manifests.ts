// `bosun manifests [--family F] [--namespace NS] [--image IMAGE]`: print everything a real cluster needs to run
// Bosun's controllers (CRDs, Namespace, ServiceAccount, RBAC, Service, Deployment, PodDisruptionBudget) as one
// multi-document YAML stream in apply order, for `bosun manifests | kubectl apply -f -`.
import { Command } from 'commander';
import { stringify } from 'yaml';
import type { KubeObject } from '../../apimachinery/object.ts';
import type { Family } from '../../runtime/family.ts';
import { bosunFamilies, familyCrds, selectFamilies } from '../families.ts';
import { DEFAULT_INSTALL, installObjects, type InstallOptions } from '../install/install-objects.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

/** Objects as one YAML stream, each document introduced by `---`. */
export function renderYamlStream(objects: readonly KubeObject[]): string {
  return objects.map((o) => `---\n${stringify(o, { lineWidth: 0 })}`).join('');
}

/** The families' CRDs alone as a YAML stream. */
export function renderManifests(families: readonly Family[]): string {
  return renderYamlStream(familyCrds(families));
}

/** What `bosun manifests` prints: the whole install of the families. */
export function renderInstallManifests(families: readonly Family[], opts: InstallOptions = DEFAULT_INSTALL): string {
  return renderYamlStream(installObjects(families, opts));
}

export function manifestsCommand(available: readonly Family[] = bosunFamilies): Command {
  return new Command('manifests')
    .description("print what a real cluster needs to run Bosun's controllers (CRDs, RBAC, Deployment, ...) as YAML for kubectl apply -f -")
    .option('--family <family>', `only one controller family (${available.map((f) => f.name).join(', ')})`)
    .option('--namespace <ns>', 'namespace the controllers are installed in', DEFAULT_INSTALL.namespace)
    .option('--image <image>', 'container image of bosun', DEFAULT_INSTALL.image)
    .action((opts: { family?: string; namespace: string; image: string }) => {
      let out: string;
      try {
        const families = selectFamilies(opts.family === undefined ? undefined : [opts.family], available);
        out = renderInstallManifests(families, { namespace: opts.namespace, image: opts.image });
      } catch (err) {
        console.error(`bosun manifests: ${messageOf(err)}`);
        process.exit(1);
      }
      process.stdout.write(out);
    });
}
