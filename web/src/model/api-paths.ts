// The server's routes (src/server/handle-request.ts), in one place for the app.
export const apiPaths = {
  runs: () => '/api/runs',
  run: (id: string) => `/api/runs/${encodeURIComponent(id)}`,
  summary: (id: string) => `/api/runs/${encodeURIComponent(id)}/summary`,
  /** Lean: model calls come without their prompts (see `prompt`), step-ends without checkpoints. */
  events: (id: string) => `/api/runs/${encodeURIComponent(id)}/events?lean=1`,
  prompt: (id: string, seq: number) => `/api/runs/${encodeURIComponent(id)}/prompt?seq=${seq}`,
  files: (id: string) => `/api/runs/${encodeURIComponent(id)}/files`,
  file: (id: string, path: string) =>
    `/api/runs/${encodeURIComponent(id)}/file?path=${encodeURIComponent(path)}`,
  edits: (id: string) => `/api/runs/${encodeURIComponent(id)}/edits`,
  traces: (id: string) => `/api/runs/${encodeURIComponent(id)}/traces`,
  stop: (id: string) => `/api/runs/${encodeURIComponent(id)}/stop`,
  resume: (id: string) => `/api/runs/${encodeURIComponent(id)}/resume`,
  feedback: (id: string) => `/api/runs/${encodeURIComponent(id)}/feedback`,
  answer: (id: string, request: string) =>
    `/api/runs/${encodeURIComponent(id)}/feedback/${encodeURIComponent(request)}`,
};
