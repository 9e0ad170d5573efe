import { EnvironmentError } from '../errors/codify-error.js';
import { checkBubblewrap } from './bubblewrap-check.js';
import { bubblewrapSandbox } from './bubblewrap-sandbox.js';
import { noSandbox } from './none-sandbox.js';
import { defaultOutputFileCapBytes } from './output-collector.js';
import type { Sandbox } from './types.js';

export type SandboxKind = 'bubblewrap' | 'none';

export interface SandboxOptions {
  /** The bwrap binary (default `bwrap` on PATH). */
  bwrapPath?: string;
  /** util-linux prlimit, which applies the memory and process limits (default /usr/bin/prlimit). */
  prlimitPath?: string;
  /** Most bytes of output saved to request.outputPath; past it the script is stopped (default 50 MiB). */
  outputFileCapBytes?: number;
  /** Where `--gpu` looks for NVIDIA device files (default /dev; a fake layout in tests). */
  deviceRoot?: string;
}

/** Raised by createSandbox when the chosen sandbox cannot run here; the message says what to do. */
export class SandboxUnavailableError extends EnvironmentError {
  override name = 'SandboxUnavailableError';
}

/**
 * A sandbox of the given kind. `bubblewrap` is checked first (installed, and able to start
 * an isolated process here); when it cannot run, this throws SandboxUnavailableError saying
 * how to install it or to pass `--sandbox none` explicitly. `none` never fails: print
 * `noSandboxWarning` when using it.
 */
export async function createSandbox(
  kind: SandboxKind,
  options: SandboxOptions = {},
): Promise<Sandbox> {
  const prlimitPath = options.prlimitPath ?? '/usr/bin/prlimit';
  const outputFileCapBytes = options.outputFileCapBytes ?? defaultOutputFileCapBytes;
  if (kind === 'none') return noSandbox({ prlimitPath, outputFileCapBytes });
  const bwrapPath = options.bwrapPath ?? 'bwrap';
  const status = await checkBubblewrap(bwrapPath);
  if (!status.found) {
    throw new SandboxUnavailableError(
      `bubblewrap (${bwrapPath}) is not installed, and codify runs generated code only inside it. Install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap), or pass --sandbox none to run scripts without isolation.`,
    );
  }
  if (!status.canStart) {
    throw new SandboxUnavailableError(
      `bubblewrap is installed but ${status.detail}. Unprivileged user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu 24.04 an AppArmor profile for bwrap), or pass --sandbox none to run scripts without isolation.`,
    );
  }
  return bubblewrapSandbox({
    bwrapPath,
    prlimitPath,
    outputFileCapBytes,
    ...(options.deviceRoot === undefined ? {} : { deviceRoot: options.deviceRoot }),
  });
}

export { noSandboxWarning } from './none-sandbox.js';
export { summarizeTrace } from './trace-summary.js';
export { defaultOutputFileCapBytes } from './output-collector.js';
export type * from './types.js';
export { defaultLimits } from './types.js';
