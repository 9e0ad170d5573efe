import { exitCodes } from '../../errors/exit-codes.js';
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { parseNumberFlag, portSchema, runFolderOption } from '../options.js';
import { resolveRunsRoot } from '../../runs/runs-root.js';
import { appIsBuilt, defaultAppDirectory } from '../../server/static-files.js';
import { isLoopbackHost, startUiServer, type UiServer } from '../../server/ui-server.js';

export interface UiCommandOptions {
  port?: number;
  host: string;
  root?: string;
}

/** Tried one after another when no --port is given and the first is taken. */
const defaultPort = 8765;
const portsToTry = 10;

async function listen(options: UiCommandOptions, root: string): Promise<UiServer> {
  const ports =
    options.port !== undefined
      ? [options.port]
      : Array.from({ length: portsToTry }, (_, index) => defaultPort + index);
  for (const [index, port] of ports.entries()) {
    try {
      return await startUiServer({ root, host: options.host, port });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EADDRINUSE' || index === ports.length - 1) throw error;
    }
  }
  throw new Error('unreachable: the port list is never empty');
}

async function runUi(options: UiCommandOptions): Promise<void> {
  const root = resolveRunsRoot(options.root);
  let ui: UiServer;
  try {
    ui = await listen(options, root);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message = error instanceof Error ? error.message : String(error);
    const hint =
      code === 'EADDRINUSE'
        ? 'another program uses that port; pick another with --port N (0 picks a free one)'
        : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
          ? `--host ${options.host} is not an address of this machine`
          : 'check --host and --port';
    process.stderr.write(`codify ui: cannot listen on ${options.host}: ${message} (${hint})\n`);
    process.exitCode = exitCodes.environment;
    return;
  }
  if (!isLoopbackHost(options.host)) {
    process.stderr.write(
      `warning: listening on ${options.host}, not only on this machine: anyone who can reach it and has the token sees every run (its prompts and code) in ${root} and can start runs on this machine.\n`,
    );
  }
  if (!appIsBuilt(defaultAppDirectory())) {
    process.stderr.write(
      'warning: the web app is not built; run `npm run build` in the codify folder (the API works meanwhile).\n',
    );
  }
  if (!existsSync(root)) {
    process.stdout.write(`${root} does not exist yet; runs recorded there will appear.\n`);
  }
  process.stdout.write(
    `codify ui: serving the runs in ${root}\nOpen ${ui.urls.length === 1 ? 'this URL' : 'one of these URLs'} (it carries the access token):\n\n${ui.urls.map((url) => `    ${url}\n`).join('')}\nCtrl-C to stop.\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void ui.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** `codify ui [--port N] [--host H] [--root DIR]` */
export function registerUiCommand(program: Command): void {
  program
    .command('ui')
    .description('serve the web app: every run, live, in the browser (127.0.0.1 and a token)')
    .option(
      '--port <port>',
      `port to listen on (default ${defaultPort}, or the next free one)`,
      parseNumberFlag('--port', portSchema),
    )
    .option(
      '--host <host>',
      'address to listen on; anything but loopback is reachable by others',
      '127.0.0.1',
    )
    .addOption(runFolderOption('holding'))
    .action(async (options: UiCommandOptions) => {
      await runUi(options);
    });
}
