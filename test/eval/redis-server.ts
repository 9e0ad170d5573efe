import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** A real redis-server on the port, without persistence; killed by the caller (or with `children`). */
export async function startRedis(port: number, children: ChildProcess[]): Promise<ChildProcess> {
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(redis);
  let output = '';
  redis.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (
    let waited = 0;
    !output.includes('Ready to accept connections') && waited < 20_000;
    waited += 50
  ) {
    if (redis.exitCode !== null) throw new Error(`redis-server exited: ${output}`);
    await sleep(50);
  }
  return redis;
}
