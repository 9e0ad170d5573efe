import { execFile } from 'node:child_process';

/** Where an interpreter really lives, as Python itself reports it (resolves pyenv shims and venvs). */
export interface InterpreterLayout {
  /** sys.executable: the binary to run (never a shim). */
  executable: string;
  /** sys.prefix and sys.base_prefix (equal outside a virtual environment). */
  prefix: string;
  basePrefix: string;
  /**
   * Folders on its sys.path outside both prefixes that site (a `.pth` file) put there, e.g.
   * the site-packages of another virtual environment; not the user's site or PYTHONPATH.
   */
  sitePaths: string[];
}

const layoutScript = `
import json, os, site, sys
prefixes = [os.path.realpath(p) + os.sep for p in (sys.prefix, sys.base_prefix)]
skipped = {"", os.getcwd(), site.getusersitepackages()} | set(os.environ.get("PYTHONPATH", "").split(os.pathsep))
extra = [p for p in sys.path if p not in skipped and os.path.isdir(p)
         and not any((os.path.realpath(p) + os.sep).startswith(q) for q in prefixes)]
print(json.dumps([sys.executable, sys.prefix, sys.base_prefix, extra]))
`;
const cache = new Map<string, Promise<InterpreterLayout>>();

function probeLayout(interpreter: string): Promise<InterpreterLayout> {
  return new Promise((resolve, reject) => {
    execFile(interpreter, ['-c', layoutScript], { timeout: 30_000 }, (error, stdout) => {
      if (error) {
        reject(
          new Error(
            `The Python interpreter ${interpreter} could not start: ${error.message.split('\n')[0] ?? ''}. Pass another one with --python PATH.`,
          ),
        );
        return;
      }
      try {
        const [executable, prefix, basePrefix, sitePaths] = JSON.parse(stdout.trim()) as [
          string,
          string,
          string,
          string[],
        ];
        resolve({ executable: executable || interpreter, prefix, basePrefix, sitePaths });
      } catch {
        reject(new Error(`The Python interpreter ${interpreter} printed something unexpected.`));
      }
    });
  });
}

/** The layout of `interpreter`, probed once per path and remembered. */
export function interpreterLayout(interpreter: string): Promise<InterpreterLayout> {
  let layout = cache.get(interpreter);
  if (!layout) {
    layout = probeLayout(interpreter);
    cache.set(interpreter, layout);
    layout.catch(() => cache.delete(interpreter));
  }
  return layout;
}
