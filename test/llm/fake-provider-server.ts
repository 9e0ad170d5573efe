import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server does with one request: answer, fail with a status, or never answer. */
export type Behaviour =
  | { kind: 'answer'; body: unknown }
  | { kind: 'fail'; status: number; headers?: Record<string, string>; body?: unknown }
  | { kind: 'hang' };

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface FakeServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 playing the behaviours in order (the last one repeats). */
export async function startFakeServer(behaviours: Behaviour[]): Promise<FakeServer> {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep the raw text
      }
      received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body,
      });
      const behaviour = behaviours[received.length - 1] ?? behaviours.at(-1);
      if (behaviour === undefined || behaviour.kind === 'hang') return;
      if (behaviour.kind === 'fail') {
        response.writeHead(behaviour.status, {
          'content-type': 'application/json',
          ...behaviour.headers,
        });
        response.end(
          JSON.stringify(behaviour.body ?? { error: { message: `status ${behaviour.status}` } }),
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(behaviour.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
