import { dirname } from 'node:path';

/**
 * The whole environment a script sees. It starts empty: nothing of codify's own environment
 * (API keys, tokens, proxies, cloud credentials) is passed on.
 */
export function sandboxEnvironment(executable: string, home: string): Record<string, string> {
  return {
    PATH: [...new Set([dirname(executable), '/usr/local/bin', '/usr/bin', '/bin'])].join(':'),
    HOME: home,
    TMPDIR: home,
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    PYTHONUNBUFFERED: '1',
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONNOUSERSITE: '1',
    MPLBACKEND: 'Agg',
  };
}
