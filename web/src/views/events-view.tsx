import { describeEvent } from '../../../src/cli/render/format-event.js';
import { formatOffset } from '../../../src/cli/render/format-values.js';
import { FileBrowser } from '../components/file-browser.js';
import { ModelCalls } from '../components/model-calls.js';
import { Tabs } from '../components/tabs.js';
import { modelCallsOf } from '../model/model-calls.js';
import type { RunViewProps } from './run-view-props.js';

/** Any run, whatever its mode: the timeline the terminal prints, model calls and files. */
export function EventsView({ runId, events, tab, filesRevision }: RunViewProps) {
  const active = tab ?? 'events';
  const calls = modelCallsOf(events);
  return (
    <>
      <Tabs
        runId={runId}
        active={active}
        tabs={[
          { id: 'events', label: 'Timeline', note: String(events.length) },
          { id: 'calls', label: 'Model calls', note: String(calls.length) },
          { id: 'files', label: 'Files' },
        ]}
      />
      {active === 'calls' ? <ModelCalls runId={runId} calls={calls} /> : null}
      {active === 'files' ? <FileBrowser runId={runId} reloadKey={filesRevision} /> : null}
      {active === 'events' ? <EventTimeline events={events} /> : null}
    </>
  );
}

export function EventTimeline({ events }: { events: RunViewProps['events'] }) {
  const start = Date.parse(events[0]?.time ?? '');
  return (
    <ol className="event-timeline">
      {events.map((event) => {
        const text = describeEvent(event);
        if (text === undefined) return null;
        return (
          <li key={event.seq} className={`event event-${event.type}`}>
            <span className="event-time">{formatOffset(Date.parse(event.time) - start)}</span>
            <span className="event-text">{text}</span>
          </li>
        );
      })}
    </ol>
  );
}
