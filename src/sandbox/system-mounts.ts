import { lstatSync, readlinkSync } from 'node:fs';

/** Top-level system folders the sandbox sees read-only (symlinks are recreated as symlinks). */
export const systemFolders = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * The only entries of /etc the sandbox sees: what the dynamic loader, Python, numpy (BLAS
 * through /etc/alternatives), TLS and time zones need. Everything else in /etc stays hidden:
 * shadow files, ssh keys, and tool configs that can hold tokens (npmrc, pip.conf, gitconfig).
 */
export const etcEntries = [
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'alternatives',
  'localtime',
  'timezone',
  'passwd',
  'group',
  'nsswitch.conf',
  'hosts',
  'host.conf',
  'gai.conf',
  'protocols',
  'services',
  'mime.types',
  'ssl',
  'ca-certificates',
  'pki',
  'fonts',
  'python3',
  'python3.11',
  'python3.12',
  'python3.13',
  'matplotlibrc',
  'os-release',
  'debian_version',
];

/** Only with network access: name resolution needs the resolver configuration. */
export const networkEtcEntries = ['resolv.conf'];

export type SystemMount =
  { kind: 'bind'; path: string } | { kind: 'symlink'; path: string; target: string };

/** How each existing path should appear in the sandbox: bound read-only, or as the same symlink. */
export function systemMounts(paths: readonly string[]): SystemMount[] {
  const mounts: SystemMount[] = [];
  for (const path of paths) {
    try {
      const status = lstatSync(path);
      if (status.isSymbolicLink()) {
        mounts.push({ kind: 'symlink', path, target: readlinkSync(path) });
      } else {
        mounts.push({ kind: 'bind', path });
      }
    } catch {
      // absent on this machine: nothing to expose
    }
  }
  return mounts;
}
