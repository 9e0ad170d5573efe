import type { CodifyEvent, CodifyEventBody } from './events.js';

/** What a pipeline gets to record a run: its folder and the event stream. */
export interface RunContext {
  id: string;
  /** Absolute path of runs/<id>/. */
  dir: string;
  emit(body: CodifyEventBody): CodifyEvent;
}
