import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { createAccessToken } from './access-token.js';
import { handleRequest } from './handle-request.js';
import { defaultAppDirectory } from './static-files.js';

export interface UiServerOptions {
  /** The runs folder the API shows. */
  root: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  token?: string;
  /** The built web app; default: web/dist of this package. */
  appDirectory?: string;
  /** How often a live run's log is looked at, in milliseconds. */
  pollMs?: number;
  /** Where runs started from the page run, and relative paths resolve; default the cwd. */
  workingDirectory?: string;
}

export interface UiServer {
  server: Server;
  token: string;
  host: string;
  port: number;
  /** The address to open, token included (for a wildcard host, this machine's first address). */
  url: string;
  /**
   * Every address to open: the host itself, or for a wildcard host (`0.0.0.0`, `::`), which no
   * browser can open, each address of this machine's network interfaces, external ones first.
   */
  urls: string[];
  close(): Promise<void>;
}

/** Starts the web app's server; resolves once it listens. */
export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const token = options.token ?? createAccessToken();
  const host = options.host ?? '127.0.0.1';
  const context = {
    root: options.root,
    workingDirectory: options.workingDirectory ?? process.cwd(),
    token,
    appDirectory: options.appDirectory ?? defaultAppDirectory(),
    pollMs: options.pollMs,
  };
  const server = createServer((request, response) => {
    handleRequest(context, request, response).catch((error: unknown) => {
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urls = reachableHosts(host).map(
    (address) =>
      `http://${address.includes(':') ? `[${address}]` : address}:${port}/?token=${token}`,
  );
  return {
    server,
    token,
    host,
    port,
    url: urls[0] ?? `http://${host}:${port}/?token=${token}`,
    urls,
    close: () =>
      new Promise<void>((resolve) => {
        // Event streams never end by themselves; cut them so close() resolves.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Whether a host only listens on this machine (the default); any other gets a warning. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/**
 * The addresses a browser can open for a listening host: the host itself, unless it is a
 * wildcard; then this machine's interface addresses (IPv4 ones for `0.0.0.0`, all for `::`),
 * external before loopback, link-local IPv6 ones (which need a zone) left out.
 */
export function reachableHosts(
  host: string,
  interfaces: ReturnType<typeof networkInterfaces> = networkInterfaces(),
): string[] {
  if (host !== '0.0.0.0' && host !== '::' && host !== '[::]') return [host];
  const addresses = Object.values(interfaces)
    .flatMap((entries) => entries ?? [])
    .filter((entry) => (host === '0.0.0.0' ? entry.family === 'IPv4' : true))
    .filter((entry) => !(entry.family === 'IPv6' && entry.address.toLowerCase().startsWith('fe80')))
    .sort((left, right) => Number(left.internal) - Number(right.internal));
  const unique = [...new Set(addresses.map((entry) => entry.address))];
  return unique.length === 0 ? [host === '0.0.0.0' ? '127.0.0.1' : '::1'] : unique;
}
