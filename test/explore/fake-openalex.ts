import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A work as OpenAlex's works API returns it (abstract as word → positions). */
export interface FakeWork {
  id: string;
  title: string;
  abstract: string;
}

export function openAlexWork(work: FakeWork) {
  const index: Record<string, number[]> = {};
  work.abstract.split(' ').forEach((word, position) => {
    index[word] = [...(index[word] ?? []), position];
  });
  return {
    id: `https://openalex.org/${work.id}`,
    display_name: work.title,
    title: work.title,
    abstract_inverted_index: index,
  };
}

/**
 * A local server speaking OpenAlex's `/works?search=…` JSON: `answer` gives the works for
 * each search; every search asked is kept, in order.
 */
export async function fakeOpenAlex(
  answer: (search: string) => FakeWork[],
): Promise<{ url: string; searches: string[]; close: () => Promise<void> }> {
  const searches: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== '/works') {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":"not found"}');
      return;
    }
    const search = url.searchParams.get('search') ?? '';
    searches.push(search);
    const results = answer(search).map(openAlexWork);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        meta: { count: results.length, db_response_time_ms: 3, page: 1, per_page: 10 },
        results,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    searches,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** `count` works on tabular learning that propose nothing like the ideas in the tests. */
export function fillerWorks(prefix: string, count: number): FakeWork[] {
  const topics = [
    'gradient boosted trees for tabular benchmarks',
    'label smoothing for small neural networks',
    'dropout rates in shallow perceptrons',
    'weight decay schedules for tabular models',
    'feature standardization and convergence',
    'early stopping on small validation splits',
    'ensembles of small multilayer perceptrons',
    'batch size effects on tabular classifiers',
    'learning rate warmup for shallow networks',
    'class imbalance in medical tabular data',
    'calibration of tabular classifiers',
    'data augmentation by SMOTE oversampling',
    'cutout regularization for images',
    'stochastic depth in deep residual networks',
  ];
  return Array.from({ length: count }, (_, index) => {
    const topic = topics[index % topics.length] ?? 'tabular learning';
    return {
      id: `${prefix}${index + 1}`,
      title: `A study of ${topic} (${prefix}${index + 1})`,
      abstract: `We study ${topic} on several small data sets and report accuracy over seeds.`,
    };
  });
}
