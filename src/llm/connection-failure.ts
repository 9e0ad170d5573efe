/**
 * A connection that could not be made at all: the host name does not resolve, nothing listens
 * on the port, or there is no route to it. Trying again a few seconds later does not help
 * (unlike a reset connection, a rate limit or a 5xx), so such a call fails at once.
 */
export interface ConnectionFailure {
  code: UnreachableCode;
  /** `host` or `host:port` the call went to. */
  host: string;
}

const whatToCheck = {
  ENOTFOUND: 'the host name does not resolve: check the network connection and the base URL',
  EAI_AGAIN:
    'the host name could not be looked up (no DNS answer): check the network connection and the base URL',
  ECONNREFUSED:
    'nothing accepts connections there: check that the server is running (e.g. `ollama serve`) and the base URL',
  ENETUNREACH: 'the network is unreachable: check the network connection',
  EHOSTUNREACH: 'there is no route to the host: check the network connection and the base URL',
} as const;

export type UnreachableCode = keyof typeof whatToCheck;

const isUnreachableCode = (code: unknown): code is UnreachableCode =>
  typeof code === 'string' && Object.hasOwn(whatToCheck, code);

/** What the user should check for a connection that could not be made. */
export const adviceFor = (code: UnreachableCode): string => whatToCheck[code];

/**
 * Finds a connection failure in an error or its causes (the AI SDK wraps fetch's TypeError,
 * which wraps undici's error, which may wrap one error per address tried).
 */
export function findConnectionFailure(error: unknown, url?: string): ConnectionFailure | undefined {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
    if (typeof next !== 'object' || next === null || seen.has(next)) continue;
    seen.add(next);
    const fields = next as {
      code?: unknown;
      hostname?: unknown;
      address?: unknown;
      port?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (isUnreachableCode(fields.code)) {
      return { code: fields.code, host: hostOf(fields, url) };
    }
    if (fields.cause !== undefined) pending.push(fields.cause);
    if (Array.isArray(fields.errors)) pending.push(...(fields.errors as unknown[]));
  }
  return undefined;
}

function hostOf(
  fields: { hostname?: unknown; address?: unknown; port?: unknown },
  url: string | undefined,
): string {
  if (url !== undefined && URL.canParse(url)) return new URL(url).host;
  if (typeof fields.hostname === 'string') return fields.hostname;
  if (typeof fields.address === 'string') {
    return typeof fields.port === 'number' ? `${fields.address}:${fields.port}` : fields.address;
  }
  return 'the provider';
}
