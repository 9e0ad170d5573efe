import type { ComponentType } from 'react';
import type { RunMode } from '../../../src/runs/events.js';
import { EvalView } from './eval-view.js';
import { EventsView } from './events-view.js';
import { ExploreView } from './explore-view.js';
import { ImplementView } from './implement-view.js';
import { PaperView } from './paper-view.js';
import type { RunViewProps } from './run-view-props.js';

/** One view per mode; a mode without its own (check, for now) gets the timeline. */
const views: Partial<Record<RunMode, ComponentType<RunViewProps>>> = {
  implement: ImplementView,
  paper: PaperView,
  explore: ExploreView,
  eval: EvalView,
};

export function viewFor(mode: RunMode | 'unknown'): ComponentType<RunViewProps> {
  return mode === 'unknown' ? EventsView : (views[mode] ?? EventsView);
}
