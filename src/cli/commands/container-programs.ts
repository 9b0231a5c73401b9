// `bosun container-init` and `bosun container-wait`: the programs around a container deploy item's image (the
// node agent maps the images container-deployer-init and container-deployer-wait here). See
// src/landscaper/deployers/container/programs.ts.
import { Command } from 'commander';
import { runInit, runWait } from '../../landscaper/deployers/container/programs.ts';

function program(name: string, description: string, run: () => string): Command {
  return new Command(name).description(description).action(() => {
    try {
      process.stdout.write(`${run().replace(/\n$/, '')}\n`);
    } catch (err) {
      process.stderr.write(`bosun ${name}: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    }
  });
}

export function containerInitCommand(): Command {
  return program('container-init', 'lay out /data/ls/shared for a container deploy item (imports, content, state)', runInit);
}

export function containerWaitCommand(): Command {
  return program('container-wait', "report a container deploy item's exports and state on the log", runWait);
}
